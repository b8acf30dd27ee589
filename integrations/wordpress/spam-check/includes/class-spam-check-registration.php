<?php
/**
 * Registrations: a new user's e-mail address is checked; spam refuses the registration with the reason.
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Checks the address on wp-login.php's registration form.
 */
final class Spam_Check_Registration {

	/**
	 * Hooks into the registration form and its validation.
	 */
	public function register() {
		add_action( 'register_form', array( 'Spam_Check_Form', 'render_fields' ) );
		add_filter( 'registration_errors', array( $this, 'check' ), 10, 3 );
	}

	/**
	 * Adds an error when the address is spam (in enforce mode). A registration that already failed is not
	 * checked; when the deployment cannot answer, the registration goes through (WordPress cannot hold one)
	 * and the failure is logged.
	 *
	 * @param WP_Error $errors The registration's errors so far.
	 * @param string   $login  The user name.
	 * @param string   $email  The e-mail address.
	 * @return WP_Error
	 */
	public function check( $errors, $login, $email ) {
		if ( $errors->has_errors() ) {
			return $errors;
		}
		$settings = Spam_Check_Settings::get();
		$agent    = isset( $_SERVER['HTTP_USER_AGENT'] ) ? sanitize_text_field( wp_unslash( $_SERVER['HTTP_USER_AGENT'] ) ) : '';
		// The user name the newcomer chose is the name they gave.
		$context  = array_merge(
			Spam_Check_Form::submitted_context( $agent ),
			Spam_Check_Form::author_context( 'signup', (string) $login )
		);
		$result   = ( new Spam_Check_Api( $settings ) )->check_mail( (string) $email, $context );
		$verdict  = is_wp_error( $result ) ? $result : Spam_Check_Verdict::from_result( $result );
		if ( is_wp_error( $verdict ) ) {
			// phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- operators read it in the PHP log.
			error_log( '[spam-check] registration not checked: ' . $verdict->get_error_message() );
			return $errors;
		}
		if ( 'dry-run' === $settings['mode'] ) {
			// phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- dry-run's whole output.
			error_log( sprintf( '[spam-check] dry-run: registration verdict %s, score %.2f, check %s', $verdict->verdict, $verdict->score, $verdict->id ) );
			return $errors;
		}
		if ( 'spam' === $verdict->verdict ) {
			$errors->add(
				'spam_check_refused',
				/* translators: %s: the reasons the deployment gave. */
				esc_html( sprintf( __( 'This registration was refused as spam. %s', 'spam-check' ), $verdict->messages() ) )
			);
		}
		return $errors;
	}
}
