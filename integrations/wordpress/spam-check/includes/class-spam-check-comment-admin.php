<?php
/**
 * wp-admin's comments: the verdict beside each comment, and a moderator's "Spam", "Not spam" and "Approve"
 * sent to the deployment as feedback by check id.
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The comments screen's column and the feedback from moderation.
 */
final class Spam_Check_Comment_Admin {

	/**
	 * Hooks into the comments list and comment status changes.
	 */
	public function register() {
		add_filter( 'manage_edit-comments_columns', array( $this, 'add_column' ) );
		add_action( 'manage_comments_custom_column', array( $this, 'render_column' ), 10, 2 );
		add_action( 'transition_comment_status', array( $this, 'send_feedback' ), 10, 3 );
	}

	/**
	 * Adds the "Spam check" column.
	 *
	 * @param array<string, string> $columns The columns.
	 * @return array<string, string>
	 */
	public function add_column( $columns ) {
		$columns['spam_check'] = __( 'Spam check', 'spam-check' );
		return $columns;
	}

	/**
	 * Prints a comment's verdict, score and reasons (or why it was not checked).
	 *
	 * @param string $column     The column.
	 * @param int    $comment_id The comment's id.
	 */
	public function render_column( $column, $comment_id ) {
		if ( 'spam_check' !== $column ) {
			return;
		}
		$verdict = get_comment_meta( $comment_id, Spam_Check_Comments::META_VERDICT, true );
		if ( '' === $verdict ) {
			$error = get_comment_meta( $comment_id, Spam_Check_Comments::META_ERROR, true );
			if ( '' === $error ) {
				echo esc_html__( 'Not checked', 'spam-check' );
				return;
			}
			// The stored error says why (unreachable, not set up, refused credentials).
			echo esc_html__( 'Not checked: the API could not be reached.', 'spam-check' ) . '<br /><small>' . esc_html( $error ) . '</small>';
			return;
		}
		$score   = (float) get_comment_meta( $comment_id, Spam_Check_Comments::META_SCORE, true );
		$reasons = get_comment_meta( $comment_id, Spam_Check_Comments::META_REASONS, true );
		printf(
			'<strong class="spam-check-verdict spam-check-%1$s">%2$s</strong> <span class="spam-check-score">%3$s</span>',
			esc_attr( $verdict ),
			esc_html( self::verdict_label( $verdict ) ),
			/* translators: %s: the spam score, 0 to 1. */
			esc_html( sprintf( __( 'score %s', 'spam-check' ), number_format_i18n( $score, 2 ) ) )
		);
		if ( 'dry-run' === get_comment_meta( $comment_id, Spam_Check_Comments::META_MODE, true ) ) {
			echo ' <em>' . esc_html__( '(dry run: not applied)', 'spam-check' ) . '</em>';
		}
		if ( is_array( $reasons ) && array() !== $reasons ) {
			echo '<ul class="spam-check-reasons">';
			foreach ( $reasons as $reason ) {
				echo '<li>' . esc_html( isset( $reason['message'] ) ? $reason['message'] : '' ) . '</li>';
			}
			echo '</ul>';
		}
		$feedback = get_comment_meta( $comment_id, Spam_Check_Comments::META_FEEDBACK, true );
		if ( '' !== $feedback ) {
			echo '<p class="spam-check-feedback">' . esc_html( 'spam' === $feedback ? __( 'Reported as spam', 'spam-check' ) : __( 'Reported as not spam', 'spam-check' ) ) . '</p>';
		}
	}

	/**
	 * Sends a moderator's correction: to spam is `spam`; out of spam ("Not spam") or a held comment approved
	 * is `ham`. Each comment's label is sent once; changes made without a moderator teach nothing.
	 *
	 * @param string     $new_status The new status.
	 * @param string     $old_status The old status.
	 * @param WP_Comment $comment    The comment.
	 */
	public function send_feedback( $new_status, $old_status, $comment ) {
		$label = self::label( $new_status, $old_status );
		if ( null === $label || ! current_user_can( 'edit_comment', $comment->comment_ID ) ) {
			return;
		}
		$check_id = get_comment_meta( $comment->comment_ID, Spam_Check_Comments::META_ID, true );
		if ( '' === $check_id || get_comment_meta( $comment->comment_ID, Spam_Check_Comments::META_FEEDBACK, true ) === $label ) {
			return;
		}
		$answer = ( new Spam_Check_Api( Spam_Check_Settings::get() ) )->feedback( $check_id, $label );
		if ( is_wp_error( $answer ) ) {
			// phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- operators read it in the PHP log.
			error_log( sprintf( '[spam-check] feedback %s for check %s not sent: %s', $label, $check_id, $answer->get_error_message() ) );
			return;
		}
		update_comment_meta( $comment->comment_ID, Spam_Check_Comments::META_FEEDBACK, $label );
	}

	/**
	 * The label a status change teaches, or null.
	 *
	 * @param string $new_status The new status.
	 * @param string $old_status The old status.
	 * @return string|null
	 */
	private static function label( $new_status, $old_status ) {
		if ( 'spam' === $new_status && 'spam' !== $old_status ) {
			return 'spam';
		}
		if ( 'spam' === $old_status && in_array( $new_status, array( 'approved', 'unapproved' ), true ) ) {
			return 'ham';
		}
		return 'unapproved' === $old_status && 'approved' === $new_status ? 'ham' : null;
	}

	/**
	 * A verdict in the site's language.
	 *
	 * @param string $verdict `ham`, `suspicious` or `spam`.
	 * @return string
	 */
	private static function verdict_label( $verdict ) {
		$labels = array(
			'ham'        => __( 'Ham', 'spam-check' ),
			'suspicious' => __( 'Suspicious', 'spam-check' ),
			'spam'       => __( 'Spam', 'spam-check' ),
		);
		return isset( $labels[ $verdict ] ) ? $labels[ $verdict ] : $verdict;
	}
}
