<?php
/**
 * The deployment's HTTP API: a token by the client_credentials grant, checks and feedback.
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * A client of one deployment, made from the settings. Every answer is the decoded JSON body or a WP_Error.
 */
final class Spam_Check_Api {

	const TOKEN_TRANSIENT = 'spam_check_token';

	/** How long a request may take; the filter `spam_check_timeout` changes it. */
	const TIMEOUT_SECONDS = 5;

	/**
	 * The settings.
	 *
	 * @var array<string, string>
	 */
	private $settings;

	/**
	 * A client of the deployment the settings name.
	 *
	 * @param array<string, string> $settings The settings.
	 */
	public function __construct( array $settings ) {
		$this->settings = $settings;
	}

	/**
	 * Drops the cached access token (the settings changed, or the deployment refused it).
	 */
	public static function forget_token() {
		delete_transient( self::TOKEN_TRANSIENT );
	}

	/**
	 * A text check, or a hybrid check when an e-mail address is given.
	 *
	 * @param array<string, string> $text    `title`, `body`.
	 * @param string                $email   The author's address, or ''.
	 * @param array<string, mixed>  $context The form context (may be empty).
	 * @return array<string, mixed>|WP_Error
	 */
	public function check_text( array $text, $email, array $context ) {
		$body = $text;
		if ( array() !== $context ) {
			$body['context'] = $context;
		}
		if ( '' === $email ) {
			return $this->post( 'api/v1/spam/text', $body );
		}
		$body['email'] = $email;
		return $this->post( 'api/v1/spam/hybrid-check', $body );
	}

	/**
	 * An e-mail check.
	 *
	 * @param string               $email   The address.
	 * @param array<string, mixed> $context The form context (may be empty).
	 * @return array<string, mixed>|WP_Error
	 */
	public function check_mail( $email, array $context ) {
		$body = array( 'email' => $email );
		if ( array() !== $context ) {
			$body['context'] = $context;
		}
		return $this->post( 'api/v1/spam/mail', $body );
	}

	/**
	 * Reports the right label of an earlier check.
	 *
	 * @param string $check_id The check's id.
	 * @param string $label    `spam` or `ham`.
	 * @return array<string, mixed>|WP_Error
	 */
	public function feedback( $check_id, $label ) {
		return $this->post(
			'api/v1/spam/feedback',
			array(
				'check_id' => $check_id,
				'label'    => $label,
			)
		);
	}

	/**
	 * Sets the site rules of the plugin's client at the deployment: the languages comments may be in, the most
	 * links they may hold (null: no such rule). The deployment applies them to every check of this client.
	 *
	 * @param array<string, mixed> $rules `allowed_languages` (codes or null), `max_links` (a number or null).
	 * @return array<string, mixed>|WP_Error The rules as stored.
	 */
	public function put_text_rules( array $rules ) {
		return $this->post( 'api/v1/settings/text-rules', $rules, true, 'PUT' );
	}

	/**
	 * A JSON request (POST unless told) with the bearer token; a refused token is dropped and fetched again once.
	 *
	 * @param string               $path   The path after the language prefix.
	 * @param array<string, mixed> $body   The JSON body.
	 * @param bool                 $retry  Whether a refused token may be renewed.
	 * @param string               $method The HTTP method.
	 * @return array<string, mixed>|WP_Error
	 */
	private function post( $path, array $body, $retry = true, $method = 'POST' ) {
		$token = $this->token();
		if ( is_wp_error( $token ) ) {
			return $token;
		}
		$response = wp_remote_request(
			$this->url( $path ),
			array(
				'method'  => $method,
				'timeout' => self::timeout(),
				'headers' => array(
					'Authorization' => 'Bearer ' . $token,
					'Content-Type'  => 'application/json',
					'Accept'        => 'application/json',
				),
				'body'    => wp_json_encode( $body ),
			)
		);
		if ( $retry && 401 === wp_remote_retrieve_response_code( $response ) ) {
			self::forget_token();
			return $this->post( $path, $body, false, $method );
		}
		return self::decode( $response );
	}

	/**
	 * The cached access token, or a new one by the client_credentials grant (RFC 6749 §4.4).
	 *
	 * @return string|WP_Error
	 */
	private function token() {
		if ( ! Spam_Check_Settings::is_complete( $this->settings ) ) {
			return new WP_Error( 'spam_check_not_configured', __( 'The spam check is not set up: the API base URL, client id and client secret are needed.', 'spam-check' ) );
		}
		$cached = get_transient( self::TOKEN_TRANSIENT );
		if ( is_array( $cached ) && isset( $cached['key'], $cached['token'] ) && $this->token_key() === $cached['key'] ) {
			return $cached['token'];
		}
		$response = wp_remote_post(
			$this->url( 'oauth/token' ),
			array(
				'timeout' => self::timeout(),
				'headers' => array(
					// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- HTTP Basic (RFC 6749 §2.3.1).
					'Authorization' => 'Basic ' . base64_encode( rawurlencode( $this->settings['client_id'] ) . ':' . rawurlencode( $this->settings['client_secret'] ) ),
					'Accept'        => 'application/json',
				),
				'body'    => array(
					'grant_type' => 'client_credentials',
					'scope'      => 'spam:check',
				),
			)
		);
		$answer = self::decode( $response );
		if ( is_wp_error( $answer ) ) {
			return $answer;
		}
		if ( ! isset( $answer['access_token'] ) || ! is_string( $answer['access_token'] ) ) {
			return new WP_Error( 'spam_check_bad_answer', __( 'The deployment answered the token request without a token.', 'spam-check' ) );
		}
		$lifetime = isset( $answer['expires_in'] ) ? (int) $answer['expires_in'] : 0;
		set_transient(
			self::TOKEN_TRANSIENT,
			array(
				'key'   => $this->token_key(),
				'token' => $answer['access_token'],
			),
			max( 1, $lifetime - 60 )
		);
		return $answer['access_token'];
	}

	/**
	 * Seconds a request may take: TIMEOUT_SECONDS, or what the filter `spam_check_timeout` returns.
	 *
	 * @return int
	 */
	private static function timeout() {
		return max( 1, (int) apply_filters( 'spam_check_timeout', self::TIMEOUT_SECONDS ) );
	}

	/**
	 * Ties a cached token to the deployment and client it was issued for.
	 *
	 * @return string
	 */
	private function token_key() {
		return md5( $this->settings['api_url'] . "\n" . $this->settings['client_id'] );
	}

	/**
	 * The address of a path, with the language prefix that picks the language of the reason messages.
	 *
	 * @param string $path The path after the prefix (`api/v1/...`, `oauth/token`).
	 * @return string
	 */
	private function url( $path ) {
		return untrailingslashit( $this->settings['api_url'] ) . '/' . $this->language() . $path;
	}

	/**
	 * The language prefix: the chosen one, or the site's when it is one the deployment speaks (none else:
	 * the deployment's default language).
	 *
	 * @return string
	 */
	private function language() {
		$language = $this->settings['language'];
		if ( 'site' === $language ) {
			$language = strtolower( substr( get_locale(), 0, 2 ) );
		}
		return in_array( $language, array( 'de', 'fr', 'en' ), true ) ? $language : '';
	}

	/**
	 * The JSON body of a 200 answer, else a WP_Error saying what went wrong.
	 *
	 * @param array<string, mixed>|WP_Error $response The HTTP response.
	 * @return array<string, mixed>|WP_Error
	 */
	private static function decode( $response ) {
		if ( is_wp_error( $response ) ) {
			return new WP_Error(
				'spam_check_unreachable',
				/* translators: %s: the error of the HTTP request. */
				sprintf( __( 'The spam check API cannot be reached: %s', 'spam-check' ), $response->get_error_message() )
			);
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		$body   = json_decode( wp_remote_retrieve_body( $response ), true );
		if ( 200 === $status && is_array( $body ) ) {
			return $body;
		}
		return new WP_Error(
			'spam_check_refused',
			/* translators: 1: HTTP status code, 2: the deployment's error code or description. */
			sprintf( __( 'The spam check API answered %1$d: %2$s', 'spam-check' ), $status, self::error_text( $body ) ),
			array( 'status' => $status )
		);
	}

	/**
	 * The deployment's own words for an error: a problem's `code` and `detail`, or an OAuth error.
	 *
	 * @param mixed $body The decoded body.
	 * @return string
	 */
	private static function error_text( $body ) {
		if ( ! is_array( $body ) ) {
			return __( 'no JSON body', 'spam-check' );
		}
		if ( isset( $body['error'] ) ) {
			return trim( $body['error'] . ' ' . ( isset( $body['error_description'] ) ? $body['error_description'] : '' ) );
		}
		$text = trim( ( isset( $body['code'] ) ? $body['code'] . ' ' : '' ) . ( isset( $body['detail'] ) ? $body['detail'] : '' ) );
		if ( isset( $body['errors'] ) && is_array( $body['errors'] ) ) {
			foreach ( $body['errors'] as $error ) {
				if ( is_array( $error ) && isset( $error['path'], $error['message'] ) ) {
					$text .= ' ' . $error['path'] . ': ' . $error['message'];
				}
			}
		}
		return $text;
	}
}
