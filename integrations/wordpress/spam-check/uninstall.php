<?php
/**
 * Removes everything the plugin stored: its option, its cached token and its comment meta, on every site of
 * a network.
 *
 * @package SpamCheck
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

require_once __DIR__ . '/includes/class-spam-check-settings.php';
require_once __DIR__ . '/includes/class-spam-check-api.php';
require_once __DIR__ . '/includes/class-spam-check-comments.php';

/**
 * Removes the plugin's data from the current site.
 */
function spam_check_uninstall_site() {
	delete_option( Spam_Check_Settings::OPTION );
	Spam_Check_Api::forget_token();
	foreach ( Spam_Check_Comments::META_KEYS as $key ) {
		delete_metadata( 'comment', 0, $key, '', true );
	}
}

if ( is_multisite() ) {
	foreach ( get_sites( array( 'fields' => 'ids' ) ) as $spam_check_site ) {
		switch_to_blog( $spam_check_site );
		spam_check_uninstall_site();
		restore_current_blog();
	}
} else {
	spam_check_uninstall_site();
}
