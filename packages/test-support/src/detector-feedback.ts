/** A client's feedback report straight to a detector (`POST /v1/feedback`, the client id as the gateway sends it). */
export async function reportFeedback(
  detectorUrl: string,
  client: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${detectorUrl}/v1/feedback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-id': client },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
