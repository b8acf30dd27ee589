<?php
/**
 * What the test asks of its WordPress site, answered with WordPress's own functions (there is no WP-CLI):
 *   php site.php options '{"name": value, ...}'   sets options
 *   php site.php comment ID                        prints the comment's status and meta as JSON
 *   php site.php count TEXT                        prints how many comments (any status) contain TEXT
 *   php site.php user EMAIL                        prints whether a user has this address, as JSON
 *   php site.php spam ID                           the administrator's "Spam" link under the comment in wp-admin
 * The environment names the site's configuration (WORDPRESS_CONFIG).
 */

$_SERVER['HTTP_HOST']        = '127.0.0.1';
$_SERVER['REQUEST_URI']      = '/';
$_SERVER['WORDPRESS_CONFIG'] = getenv( 'WORDPRESS_CONFIG' );
require '/usr/share/wordpress/wp-load.php';

$spam_check_command = isset( $argv[1] ) ? $argv[1] : '';
$spam_check_arg     = isset( $argv[2] ) ? $argv[2] : '';

if ( 'options' === $spam_check_command ) {
	foreach ( json_decode( $spam_check_arg, true ) as $spam_check_name => $spam_check_value ) {
		update_option( $spam_check_name, $spam_check_value );
	}
	echo wp_json_encode( array( 'ok' => true ) );
} elseif ( 'comment' === $spam_check_command ) {
	$spam_check_id = (int) $spam_check_arg;
	echo wp_json_encode(
		array(
			'status' => wp_get_comment_status( $spam_check_id ),
			'meta'   => array_map( 'maybe_unserialize', array_map( 'current', get_comment_meta( $spam_check_id ) ) ),
		)
	);
} elseif ( 'count' === $spam_check_command ) {
	echo wp_json_encode( array( 'count' => count( get_comments( array( 'search' => $spam_check_arg, 'status' => 'all', 'fields' => 'ids' ) ) ) ) );
} elseif ( 'user' === $spam_check_command ) {
	echo wp_json_encode( array( 'exists' => false !== get_user_by( 'email', $spam_check_arg ) ) );
} elseif ( 'spam' === $spam_check_command ) {
	// What wp-admin/comment.php?action=spamcomment does for a signed-in administrator: plugins that tell a
	// moderator's click from other status changes (Akismet) look at that request's action.
	wp_set_current_user( 1 );
	$_GET['action'] = 'spamcomment';
	echo wp_json_encode( array( 'ok' => (bool) wp_spam_comment( (int) $spam_check_arg ) ) );
} else {
	fwrite( STDERR, "unknown command: $spam_check_command\n" );
	exit( 2 );
}
