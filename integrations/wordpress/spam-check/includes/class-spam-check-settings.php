<?php
/**
 * The plugin's settings: one WordPress option, `spam_check_settings`.
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Reads and sanitizes the option `spam_check_settings`.
 */
final class Spam_Check_Settings {

	const OPTION = 'spam_check_settings';

	const LANGUAGES = array( 'site', 'de', 'fr', 'en' );

	const MODES = array( 'enforce', 'dry-run' );

	const ON_UNREACHABLE = array( 'hold', 'allow' );

	/**
	 * The settings a new site starts with: nothing to reach yet, enforce, and hold for moderation when the
	 * deployment cannot answer.
	 *
	 * @return array<string, string>
	 */
	public static function defaults() {
		return array(
			'api_url'        => '',
			'client_id'      => '',
			'client_secret'  => '',
			'language'       => 'site',
			'mode'           => 'enforce',
			'on_unreachable' => 'hold',
		);
	}

	/**
	 * The stored settings, with the defaults for anything missing.
	 *
	 * @return array<string, string>
	 */
	public static function get() {
		$stored = get_option( self::OPTION, array() );
		return array_merge( self::defaults(), is_array( $stored ) ? $stored : array() );
	}

	/**
	 * Whether the deployment's address and the client's credentials are all set.
	 *
	 * @param array<string, string> $settings The settings.
	 * @return bool
	 */
	public static function is_complete( array $settings ) {
		return '' !== $settings['api_url'] && '' !== $settings['client_id'] && '' !== $settings['client_secret'];
	}

	/**
	 * The settings from a submitted form. An empty secret keeps the stored one: the secret is never shown
	 * again, so a form saved without typing it must not erase it.
	 *
	 * @param mixed $input The submitted values.
	 * @return array<string, string>
	 */
	public static function sanitize( $input ) {
		$current = self::get();
		$input   = is_array( $input ) ? wp_unslash( $input ) : array();
		$clean   = $current;

		$url = isset( $input['api_url'] ) ? trim( (string) $input['api_url'] ) : '';
		if ( '' === $url || self::is_http_url( $url ) ) {
			$clean['api_url'] = untrailingslashit( esc_url_raw( $url, array( 'http', 'https' ) ) );
		} else {
			add_settings_error( self::OPTION, 'api_url', __( 'The API base URL must be an http or https address.', 'spam-check' ) );
		}
		$clean['client_id'] = isset( $input['client_id'] ) ? sanitize_text_field( (string) $input['client_id'] ) : '';
		$secret             = isset( $input['client_secret'] ) ? trim( (string) $input['client_secret'] ) : '';
		if ( '' !== $secret ) {
			$clean['client_secret'] = $secret;
		}
		$clean['language']       = self::one_of( $input, 'language', self::LANGUAGES );
		$clean['mode']           = self::one_of( $input, 'mode', self::MODES );
		$clean['on_unreachable'] = self::one_of( $input, 'on_unreachable', self::ON_UNREACHABLE );

		Spam_Check_Api::forget_token();
		return $clean;
	}

	/**
	 * Whether an address is http or https with a host. Private and loopback hosts are allowed: a deployment
	 * usually runs on the site's own network.
	 *
	 * @param string $url The address.
	 * @return bool
	 */
	private static function is_http_url( $url ) {
		$parts = wp_parse_url( $url );
		return is_array( $parts ) && isset( $parts['scheme'], $parts['host'] )
			&& in_array( strtolower( $parts['scheme'] ), array( 'http', 'https' ), true );
	}

	/**
	 * A submitted choice if it is one of the allowed values, else the default.
	 *
	 * @param array<string, mixed> $input   The submitted values.
	 * @param string               $key     The setting.
	 * @param string[]             $allowed The allowed values.
	 * @return string
	 */
	private static function one_of( array $input, $key, array $allowed ) {
		$value = isset( $input[ $key ] ) ? (string) $input[ $key ] : '';
		return in_array( $value, $allowed, true ) ? $value : self::defaults()[ $key ];
	}
}
