#!/usr/bin/perl
# Net::Akismet (Debian's libnet-akismet-perl) as its documentation shows, with SERVICE_HOST pointed at the
# service. Arguments: key, service host (host:port), then the action and the comment text:
#   verify | check <text> | spam <text> | ham <text>
use strict;
use warnings;
use Net::Akismet;

my ($key, $host, $action, $text) = @ARGV;
my $akismet = Net::Akismet->new(
    KEY          => $key,
    URL          => 'https://blog.example.org/',
    SERVICE_HOST => $host,
);
if ($action eq 'verify') {
    print $akismet ? "valid\n" : "invalid\n";
    exit 0;
}
die "Key verification failure!\n" unless $akismet;
my %comment = (
    USER_IP            => '192.0.2.3',
    COMMENT_USER_AGENT => 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    COMMENT_CONTENT    => $text,
    COMMENT_AUTHOR     => 'Jonas',
);
if ($action eq 'check') { print $akismet->check(%comment) // 'undef', "\n" }
elsif ($action eq 'spam') { print $akismet->spam(%comment) ? "sent\n" : "failed\n" }
elsif ($action eq 'ham') { print $akismet->ham(%comment) ? "sent\n" : "failed\n" }
else { die "unknown action $action\n" }
