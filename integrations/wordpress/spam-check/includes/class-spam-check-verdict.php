<?php
/**
 * A check's answer reduced to what the site keeps and shows, and what it means for a comment.
 *
 * @package SpamCheck
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The verdict of a text, mail or hybrid result: id, verdict, score and reasons (a hybrid result's reasons are
 * those of its e-mail and text parts).
 */
final class Spam_Check_Verdict {

	/**
	 * The check's id.
	 *
	 * @var string
	 */
	public $id;

	/**
	 * `ham`, `suspicious` or `spam`.
	 *
	 * @var string
	 */
	public $verdict;

	/**
	 * 0 to 1, higher is more likely spam.
	 *
	 * @var float
	 */
	public $score;

	/**
	 * Each reason's `code` and localized `message`.
	 *
	 * @var array<int, array{code: string, message: string}>
	 */
	public $reasons;

	/**
	 * A verdict.
	 *
	 * @param string                                           $id      The check's id.
	 * @param string                                           $verdict The verdict.
	 * @param float                                            $score   The score.
	 * @param array<int, array{code: string, message: string}> $reasons The reasons.
	 */
	public function __construct( $id, $verdict, $score, array $reasons ) {
		$this->id      = $id;
		$this->verdict = $verdict;
		$this->score   = $score;
		$this->reasons = $reasons;
	}

	/**
	 * The verdict of a decoded result, or a WP_Error when it is not one.
	 *
	 * @param array<string, mixed> $result The result.
	 * @return Spam_Check_Verdict|WP_Error
	 */
	public static function from_result( array $result ) {
		if ( ! isset( $result['id'], $result['verdict'], $result['score'] )
			|| ! in_array( $result['verdict'], array( 'ham', 'suspicious', 'spam' ), true ) ) {
			return new WP_Error( 'spam_check_bad_answer', __( 'The deployment answered without a verdict.', 'spam-check' ) );
		}
		$reasons = array();
		foreach ( array( $result, self::part( $result, 'email' ), self::part( $result, 'text' ) ) as $part ) {
			foreach ( isset( $part['reasons'] ) && is_array( $part['reasons'] ) ? $part['reasons'] : array() as $reason ) {
				if ( isset( $reason['code'], $reason['message'] ) ) {
					$reasons[] = array(
						'code'    => (string) $reason['code'],
						'message' => (string) $reason['message'],
					);
				}
			}
		}
		return new self( (string) $result['id'], $result['verdict'], (float) $result['score'], $reasons );
	}

	/**
	 * Whether one of the reasons has this code.
	 *
	 * @param string $code The reason code.
	 * @return bool
	 */
	public function has_reason( $code ) {
		return in_array( $code, array_column( $this->reasons, 'code' ), true );
	}

	/**
	 * The reasons' messages, one sentence after the other.
	 *
	 * @return string
	 */
	public function messages() {
		return implode( ' ', array_column( $this->reasons, 'message' ) );
	}

	/**
	 * A hybrid result's part (`email`, `text`) when it has one.
	 *
	 * @param array<string, mixed> $result The result.
	 * @param string               $name   The part.
	 * @return array<string, mixed>
	 */
	private static function part( array $result, $name ) {
		return isset( $result[ $name ] ) && is_array( $result[ $name ] ) ? $result[ $name ] : array();
	}
}
