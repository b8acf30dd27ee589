/** The phishing and scam sources whose `spam`-verdict recall issue #11 point 2 asks for (and SpamAssassin's spam). */
export const SPAM_SOURCES = [
  'en phishingpot',
  'en spamarchive',
  'en blacklisted-emails',
  'de mailinglist-spam',
  'fr mailinglist-spam',
  'en spamassassin/spam-1',
  'en spamassassin/spam-2',
];
