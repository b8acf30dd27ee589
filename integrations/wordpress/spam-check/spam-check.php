<?php
/**
 * Plugin Name:       Spam Check
 * Plugin URI:        https://github.com/spam-check/spam-check
 * Description:       Checks comments and registrations with your own spam-check deployment, and teaches it from your moderation ("Spam", "Not spam", "Approve").
 * Version:           1.0.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            The spam-check project
 * License:           MIT
 * License URI:       https://opensource.org/licenses/MIT
 * Text Domain:       spam-check
 * Domain Path:       /languages
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

define( 'SPAM_CHECK_VERSION', '1.0.0' );
define( 'SPAM_CHECK_FILE', __FILE__ );

require_once __DIR__ . '/includes/class-spam-check-settings.php';
require_once __DIR__ . '/includes/class-spam-check-api.php';
require_once __DIR__ . '/includes/class-spam-check-verdict.php';
require_once __DIR__ . '/includes/class-spam-check-form.php';
require_once __DIR__ . '/includes/class-spam-check-comments.php';
require_once __DIR__ . '/includes/class-spam-check-comment-admin.php';
require_once __DIR__ . '/includes/class-spam-check-registration.php';
require_once __DIR__ . '/includes/class-spam-check-settings-page.php';

/**
 * Loads the plugin's translations (languages/spam-check-<locale>.mo).
 */
function spam_check_load_textdomain() {
	load_plugin_textdomain( 'spam-check', false, dirname( plugin_basename( SPAM_CHECK_FILE ) ) . '/languages' );
}
add_action( 'init', 'spam_check_load_textdomain' );

( new Spam_Check_Comments() )->register();
( new Spam_Check_Comment_Admin() )->register();
( new Spam_Check_Registration() )->register();
( new Spam_Check_Settings_Page() )->register();
