<?php
/**
 * The form context: a honeypot field and a signed render timestamp in the comment and registration forms,
 * read back into the `context` of a check.
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Renders the hidden fields and reads them back.
 */
final class Spam_Check_Form {

	const HONEYPOT_FIELD = 'spam_check_website';

	const TIMESTAMP_FIELD = 'spam_check_rendered';

	/**
	 * Prints the honeypot (off screen, out of the tab order, ignored by assistive technology and password
	 * managers) and the render time signed with the site's salt.
	 */
	public static function render_fields() {
		$now = (string) time();
		printf(
			'<p class="spam-check-field" aria-hidden="true" style="position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden;">'
			. '<label for="%1$s">%2$s</label><input type="text" id="%1$s" name="%1$s" value="" tabindex="-1" autocomplete="off" /></p>'
			. '<input type="hidden" name="%3$s" value="%4$s" />',
			esc_attr( self::HONEYPOT_FIELD ),
			esc_html__( 'Leave this field empty', 'spam-check' ),
			esc_attr( self::TIMESTAMP_FIELD ),
			esc_attr( $now . ':' . self::signature( $now ) )
		);
	}

	/**
	 * The context of the submitted form: the honeypot's content, the seconds between rendering and
	 * submitting (0 when the timestamp was tampered with), and the browser's user agent. A field the form did
	 * not carry is left out.
	 *
	 * @param string $user_agent The submitter's user agent.
	 * @return array<string, mixed>
	 */
	public static function submitted_context( $user_agent ) {
		$context = array();
		// phpcs:disable WordPress.Security.NonceVerification.Missing -- public forms: the signed timestamp is the check.
		if ( isset( $_POST[ self::HONEYPOT_FIELD ] ) && is_string( $_POST[ self::HONEYPOT_FIELD ] ) ) {
			$context['honeypot'] = mb_substr( sanitize_text_field( wp_unslash( $_POST[ self::HONEYPOT_FIELD ] ) ), 0, 1000 );
		}
		if ( isset( $_POST[ self::TIMESTAMP_FIELD ] ) && is_string( $_POST[ self::TIMESTAMP_FIELD ] ) ) {
			$context['seconds_to_submit'] = self::seconds_since( sanitize_text_field( wp_unslash( $_POST[ self::TIMESTAMP_FIELD ] ) ) );
		}
		// phpcs:enable
		if ( '' !== $user_agent ) {
			$context['user_agent'] = mb_substr( $user_agent, 0, 512 );
		}
		return $context;
	}

	/**
	 * What the form was and who wrote it, for the check's context: the kind of form, and the author's name and
	 * website as given (cut to the API's limits; an empty one is left out). Never stored by the deployment.
	 *
	 * @param string $form_type   The kind of form: `comment`, `signup`, `contact`, ….
	 * @param string $author_name The name the author gave.
	 * @param string $author_url  The website the author gave.
	 * @return array<string, string>
	 */
	public static function author_context( $form_type, $author_name = '', $author_url = '' ) {
		$context     = array( 'form_type' => $form_type );
		$author_name = trim( $author_name );
		$author_url  = trim( $author_url );
		if ( '' !== $author_name ) {
			$context['author_name'] = mb_substr( $author_name, 0, 200 );
		}
		if ( '' !== $author_url ) {
			$context['author_url'] = mb_substr( $author_url, 0, 2000 );
		}
		return $context;
	}

	/**
	 * Whether the submitted form's honeypot holds anything (only a bot fills a field no person sees).
	 *
	 * @return bool
	 */
	public static function honeypot_filled() {
		// phpcs:ignore WordPress.Security.NonceVerification.Missing -- public forms: read, not acted on alone.
		return isset( $_POST[ self::HONEYPOT_FIELD ] ) && is_string( $_POST[ self::HONEYPOT_FIELD ] ) && '' !== trim( wp_unslash( $_POST[ self::HONEYPOT_FIELD ] ) );
	}

	/**
	 * Seconds since a signed render time; 0 for a forged or malformed one (a form not rendered by this site).
	 *
	 * @param string $stamp `<unix time>:<signature>`.
	 * @return int
	 */
	private static function seconds_since( $stamp ) {
		$parts = explode( ':', $stamp, 2 );
		if ( 2 !== count( $parts ) || ! ctype_digit( $parts[0] ) || ! hash_equals( self::signature( $parts[0] ), $parts[1] ) ) {
			return 0;
		}
		return (int) min( 10000000, max( 0, time() - (int) $parts[0] ) );
	}

	/**
	 * The HMAC of a render time under the site's salt.
	 *
	 * @param string $time The unix time.
	 * @return string
	 */
	private static function signature( $time ) {
		return wp_hash( 'spam-check-rendered:' . $time, 'nonce' );
	}
}
