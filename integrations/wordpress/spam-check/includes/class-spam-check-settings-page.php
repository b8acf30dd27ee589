<?php
/**
 * Settings → Spam Check: the deployment's address, the client's credentials, language, mode, what to do
 * when the deployment cannot be reached, and the site rules (allowed languages, most links).
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The settings page, on the Settings API (its nonce and the manage_options check on saving).
 */
final class Spam_Check_Settings_Page {

	const PAGE = 'spam-check';

	/**
	 * Hooks the page, the setting and the plugins screen's "Settings" link.
	 */
	public function register() {
		add_action( 'admin_menu', array( $this, 'add_page' ) );
		add_action( 'admin_init', array( $this, 'register_setting' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( SPAM_CHECK_FILE ), array( $this, 'add_settings_link' ) );
	}

	/**
	 * Adds Settings → Spam Check.
	 */
	public function add_page() {
		add_options_page( __( 'Spam Check', 'spam-check' ), __( 'Spam Check', 'spam-check' ), 'manage_options', self::PAGE, array( $this, 'render' ) );
	}

	/**
	 * Registers the option with its sanitizer.
	 */
	public function register_setting() {
		register_setting(
			self::PAGE,
			Spam_Check_Settings::OPTION,
			array(
				'type'              => 'array',
				'sanitize_callback' => array( 'Spam_Check_Settings', 'sanitize' ),
				'default'           => Spam_Check_Settings::defaults(),
				'show_in_rest'      => false,
			)
		);
	}

	/**
	 * Adds "Settings" beside "Deactivate".
	 *
	 * @param string[] $links The plugin's links.
	 * @return string[]
	 */
	public function add_settings_link( $links ) {
		$url = admin_url( 'options-general.php?page=' . self::PAGE );
		array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'spam-check' ) . '</a>' );
		return $links;
	}

	/**
	 * Prints the form. The secret is never printed: its field stays empty, and saving it empty keeps it.
	 */
	public function render() {
		if ( ! current_user_can( 'manage_options' ) ) {
			wp_die( esc_html__( 'You are not allowed to change these settings.', 'spam-check' ), 403 );
		}
		$settings = Spam_Check_Settings::get();
		$name     = Spam_Check_Settings::OPTION;
		echo '<div class="wrap"><h1>' . esc_html__( 'Spam Check', 'spam-check' ) . '</h1>';
		settings_errors( $name );
		echo '<form method="post" action="options.php">';
		settings_fields( self::PAGE );
		echo '<table class="form-table" role="presentation">';
		self::text_row( 'api_url', __( 'API base URL', 'spam-check' ), $settings['api_url'], 'url', __( 'The address of your deployment\'s gateway, for example https://spam-check.example.org.', 'spam-check' ) );
		self::text_row( 'client_id', __( 'Client id', 'spam-check' ), $settings['client_id'], 'text', __( 'A client of the deployment allowed the client_credentials grant and the scope spam:check.', 'spam-check' ) );
		self::text_row(
			'client_secret',
			__( 'Client secret', 'spam-check' ),
			'',
			'password',
			'' === $settings['client_secret'] ? __( 'Not set.', 'spam-check' ) : __( 'A secret is stored. It is never shown; leave the field empty to keep it.', 'spam-check' )
		);
		self::choice_row(
			'language',
			__( 'Language', 'spam-check' ),
			$settings['language'],
			array(
				'site' => __( 'The site\'s language', 'spam-check' ),
				'de'   => __( 'German', 'spam-check' ),
				'fr'   => __( 'French', 'spam-check' ),
				'en'   => __( 'English', 'spam-check' ),
			)
		);
		self::choice_row(
			'mode',
			__( 'Mode', 'spam-check' ),
			$settings['mode'],
			array(
				'enforce' => __( 'Enforce: spam to the spam folder, suspicious comments held for moderation', 'spam-check' ),
				'dry-run' => __( 'Dry run: check and log the verdict, change nothing', 'spam-check' ),
			)
		);
		self::choice_row(
			'on_unreachable',
			__( 'When the API cannot be reached', 'spam-check' ),
			$settings['on_unreachable'],
			array(
				'hold'  => __( 'Hold comments for moderation', 'spam-check' ),
				'allow' => __( 'Follow the site\'s own rules', 'spam-check' ),
			)
		);
		self::text_row( 'allowed_languages', __( 'Allowed languages', 'spam-check' ), $settings['allowed_languages'], 'text', __( 'Language codes separated by commas, for example de, fr. A comment in another language is held for moderation. Empty: any language.', 'spam-check' ) );
		self::text_row( 'max_links', __( 'Most links in a comment', 'spam-check' ), $settings['max_links'], 'text', __( 'More links hold a comment for moderation, twice as many send it to spam. Empty: no limit.', 'spam-check' ) );
		echo '</table>';
		echo '<p class="description">' . esc_html__( 'The allowed languages and the most links are site rules of your client at the deployment: saving sends them there, and they apply to every check of this client.', 'spam-check' ) . '</p>';
		submit_button();
		echo '</form></div>';
	}

	/**
	 * A row with a text input.
	 *
	 * @param string $key         The setting.
	 * @param string $label       The label.
	 * @param string $value       The value shown.
	 * @param string $type        The input's type.
	 * @param string $description The help text.
	 */
	private static function text_row( $key, $label, $value, $type, $description ) {
		$id = 'spam-check-' . $key;
		printf(
			'<tr><th scope="row"><label for="%1$s">%2$s</label></th><td><input type="%3$s" id="%1$s" name="%4$s" value="%5$s" class="regular-text" autocomplete="off" /><p class="description">%6$s</p></td></tr>',
			esc_attr( $id ),
			esc_html( $label ),
			esc_attr( $type ),
			esc_attr( Spam_Check_Settings::OPTION . '[' . $key . ']' ),
			esc_attr( $value ),
			esc_html( $description )
		);
	}

	/**
	 * A row with a select.
	 *
	 * @param string                $key     The setting.
	 * @param string                $label   The label.
	 * @param string                $value   The chosen value.
	 * @param array<string, string> $choices Each value's label.
	 */
	private static function choice_row( $key, $label, $value, array $choices ) {
		$id = 'spam-check-' . $key;
		printf(
			'<tr><th scope="row"><label for="%1$s">%2$s</label></th><td><select id="%1$s" name="%3$s">',
			esc_attr( $id ),
			esc_html( $label ),
			esc_attr( Spam_Check_Settings::OPTION . '[' . $key . ']' )
		);
		foreach ( $choices as $choice => $text ) {
			printf( '<option value="%1$s"%2$s>%3$s</option>', esc_attr( $choice ), selected( $value, $choice, false ), esc_html( $text ) );
		}
		echo '</select></td></tr>';
	}
}
