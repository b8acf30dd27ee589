<?php
/**
 * Each new comment is checked: spam to the spam folder, suspicious to moderation, ham by the site's rules.
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Checks comments as WordPress saves them and keeps the verdict in comment meta.
 */
final class Spam_Check_Comments {

	const META_ID = '_spam_check_id';

	const META_VERDICT = '_spam_check_verdict';

	const META_SCORE = '_spam_check_score';

	const META_REASONS = '_spam_check_reasons';

	const META_MODE = '_spam_check_mode';

	const META_ERROR = '_spam_check_error';

	const META_FEEDBACK = '_spam_check_feedback';

	/** Every comment meta key of the plugin (uninstall.php removes them all). */
	const META_KEYS = array( self::META_ID, self::META_VERDICT, self::META_SCORE, self::META_REASONS, self::META_MODE, self::META_ERROR, self::META_FEEDBACK );

	/**
	 * What the check of the comment being saved found, until `comment_post` gives it an id.
	 *
	 * @var Spam_Check_Verdict|WP_Error|null
	 */
	private $pending = null;

	/**
	 * Hooks into the comment form and WordPress's saving of a comment.
	 */
	public function register() {
		add_action( 'comment_form', array( 'Spam_Check_Form', 'render_fields' ) );
		add_filter( 'pre_comment_approved', array( $this, 'judge' ), 20, 2 );
		add_action( 'comment_post', array( $this, 'remember' ), 10, 1 );
	}

	/**
	 * The comment's status: the site's own decision, changed by the verdict in enforce mode. A comment the
	 * site already put in spam or trash, or one by a moderator, is not checked.
	 *
	 * @param int|string|WP_Error  $approved    The site's decision (1, 0, 'spam', 'trash' or an error).
	 * @param array<string, mixed> $commentdata The comment.
	 * @return int|string|WP_Error
	 */
	public function judge( $approved, $commentdata ) {
		$this->pending = null;
		if ( is_wp_error( $approved ) || in_array( $approved, array( 'spam', 'trash' ), true )
			|| ( ! empty( $commentdata['user_id'] ) && user_can( (int) $commentdata['user_id'], 'moderate_comments' ) ) ) {
			return $approved;
		}
		$settings      = Spam_Check_Settings::get();
		$this->pending = $this->check( $commentdata, $settings );
		return self::decide( $approved, $this->pending, $settings );
	}

	/**
	 * Keeps the check's id, verdict, score and reasons with the saved comment.
	 *
	 * @param int $comment_id The comment's id.
	 */
	public function remember( $comment_id ) {
		$outcome       = $this->pending;
		$this->pending = null;
		if ( null === $outcome ) {
			return;
		}
		if ( is_wp_error( $outcome ) ) {
			add_comment_meta( $comment_id, self::META_ERROR, $outcome->get_error_message(), true );
			return;
		}
		add_comment_meta( $comment_id, self::META_ID, $outcome->id, true );
		add_comment_meta( $comment_id, self::META_VERDICT, $outcome->verdict, true );
		add_comment_meta( $comment_id, self::META_SCORE, $outcome->score, true );
		add_comment_meta( $comment_id, self::META_REASONS, wp_slash( $outcome->reasons ), true );
		add_comment_meta( $comment_id, self::META_MODE, Spam_Check_Settings::get()['mode'], true );
	}

	/**
	 * The verdict on a comment: its text, with the author's e-mail as a hybrid check, and the author's name and
	 * website in the context of a `comment` form (the website is not part of the text, so it does not count
	 * among the text's links).
	 *
	 * @param array<string, mixed>  $commentdata The comment.
	 * @param array<string, string> $settings    The settings.
	 * @return Spam_Check_Verdict|WP_Error
	 */
	private function check( array $commentdata, array $settings ) {
		$body    = trim( (string) ( isset( $commentdata['comment_content'] ) ? $commentdata['comment_content'] : '' ) );
		$name    = isset( $commentdata['comment_author'] ) ? (string) $commentdata['comment_author'] : '';
		$url     = isset( $commentdata['comment_author_url'] ) ? (string) $commentdata['comment_author_url'] : '';
		$email   = isset( $commentdata['comment_author_email'] ) ? trim( (string) $commentdata['comment_author_email'] ) : '';
		$agent   = isset( $commentdata['comment_agent'] ) ? (string) $commentdata['comment_agent'] : '';
		$context = array_merge(
			Spam_Check_Form::submitted_context( $agent ),
			Spam_Check_Form::author_context( 'comment', $name, $url )
		);
		$result  = ( new Spam_Check_Api( $settings ) )->check_text(
			array(
				'title' => '',
				'body'  => $body,
			),
			$email,
			$context
		);
		$verdict = is_wp_error( $result ) ? $result : Spam_Check_Verdict::from_result( $result );
		self::log( $verdict, $settings );
		return $verdict;
	}

	/**
	 * What a verdict does to the site's decision. Enforce: a filled honeypot is refused outright (seen here or
	 * by the deployment: one that predates the form context still gets it refused), spam goes to the spam
	 * folder, suspicious to moderation, ham keeps the site's decision. Dry-run: the site's decision. No answer:
	 * held for moderation, or the site's decision when the settings say so.
	 *
	 * @param int|string                  $approved The site's decision.
	 * @param Spam_Check_Verdict|WP_Error $outcome  The verdict.
	 * @param array<string, string>       $settings The settings.
	 * @return int|string|WP_Error
	 */
	private static function decide( $approved, $outcome, array $settings ) {
		if ( 'dry-run' === $settings['mode'] ) {
			return $approved;
		}
		if ( Spam_Check_Form::honeypot_filled() || ( ! is_wp_error( $outcome ) && $outcome->has_reason( 'FORM_HONEYPOT_FILLED' ) ) ) {
			return new WP_Error( 'spam_check_refused', esc_html( self::refusal( $outcome ) ), 403 );
		}
		if ( is_wp_error( $outcome ) ) {
			return 'hold' === $settings['on_unreachable'] ? 0 : $approved;
		}
		if ( 'spam' === $outcome->verdict ) {
			return 'spam';
		}
		return 'suspicious' === $outcome->verdict ? 0 : $approved;
	}

	/**
	 * The message a refused submission shows, with the deployment's reasons when it answered.
	 *
	 * @param Spam_Check_Verdict|WP_Error $outcome The verdict.
	 * @return string
	 */
	private static function refusal( $outcome ) {
		/* translators: %s: the reasons the deployment gave (may be empty). */
		$message = __( 'Your comment was refused as spam. %s', 'spam-check' );
		return trim( sprintf( $message, is_wp_error( $outcome ) ? '' : $outcome->messages() ) );
	}

	/**
	 * Logs a dry-run verdict (what enforce mode would have done) and every failed check, to PHP's error log.
	 *
	 * @param Spam_Check_Verdict|WP_Error $outcome  The verdict.
	 * @param array<string, string>       $settings The settings.
	 */
	private static function log( $outcome, array $settings ) {
		if ( is_wp_error( $outcome ) ) {
			// phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- operators read it in the PHP log.
			error_log( sprintf( '[spam-check] comment not checked (%s): %s', $settings['on_unreachable'], $outcome->get_error_message() ) );
		} elseif ( 'dry-run' === $settings['mode'] ) {
			// phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- dry-run's whole output.
			error_log( sprintf( '[spam-check] dry-run: comment verdict %s, score %.2f, check %s, reasons %s', $outcome->verdict, $outcome->score, $outcome->id, implode( ',', array_column( $outcome->reasons, 'code' ) ) ) );
		}
	}
}
