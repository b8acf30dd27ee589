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
			'api_url'           => '',
			'client_id'         => '',
			'client_secret'     => '',
			'language'          => 'site',
			'mode'              => 'enforce',
			'on_unreachable'    => 'hold',
			'allowed_languages' => '',
			'max_links'         => '',
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
		return self::with_text_rules( $clean, $input, $current );
	}

	/**
	 * The site rules from the form, kept only once the deployment took them: they live with the plugin's client
	 * there (the deployment applies them to every check), and here only to show them. A change the deployment
	 * refuses (a bad value, or it cannot be reached) keeps the rules there were, with the reason on the page.
	 *
	 * @param array<string, string> $clean   The settings being saved.
	 * @param array<string, mixed>  $input   The submitted values.
	 * @param array<string, string> $current The stored settings.
	 * @return array<string, string>
	 */
	private static function with_text_rules( array $clean, array $input, array $current ) {
		$languages = isset( $input['allowed_languages'] ) ? (string) $input['allowed_languages'] : '';
		$codes     = array_values( array_unique( array_filter( preg_split( '/[\s,;]+/', strtolower( $languages ) ) ) ) );
		$languages = implode( ', ', $codes );
		$max_links = isset( $input['max_links'] ) ? trim( (string) $input['max_links'] ) : '';
		if ( $languages === $current['allowed_languages'] && $max_links === $current['max_links'] ) {
			return $clean;
		}
		$stored = ( new Spam_Check_Api( $clean ) )->put_text_rules(
			array(
				'allowed_languages' => array() === $codes ? null : $codes,
				// A value that is not a whole number goes as typed, for the deployment to name what is wrong.
				'max_links'         => '' === $max_links ? null : ( ctype_digit( $max_links ) ? (int) $max_links : $max_links ),
			)
		);
		if ( is_wp_error( $stored ) ) {
			add_settings_error(
				self::OPTION,
				'text_rules',
				/* translators: %s: why the deployment did not take the rules. */
				sprintf( __( 'The site rules were not changed: %s', 'spam-check' ), $stored->get_error_message() )
			);
			return $clean;
		}
		$clean['allowed_languages'] = $languages;
		$clean['max_links']         = $max_links;
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
