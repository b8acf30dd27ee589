/** Shorter secrets are refused in production (16 characters of a random alphabet are about 96 bits). */
export const MIN_PRODUCTION_SECRET_LENGTH = 16;

/**
 * Secrets published in this repository (embedded defaults, compose and k8s examples): anyone can read them,
 * so production refuses them wherever they appear.
 */
const PUBLISHED_SECRETS = [
  /^compose-demo-/,
  /^dev-demo-/,
  /^demo-/,
  /^local-gateway-client-secret$/,
  /^gateway-secret$/,
  /^admin-password$/,
];

/**
 * Why a secret may not be used in production (published in this repository, or too short), or undefined
 * when it may. `what` names it in the message (a variable, or a client in a bootstrap file).
 */
export function productionSecretProblem(what: string, secret: string): string | undefined {
  if (PUBLISHED_SECRETS.some((pattern) => pattern.test(secret)))
    return `${what}: a secret published in this repository is refused in production`;
  if (secret.length < MIN_PRODUCTION_SECRET_LENGTH)
    return `${what}: shorter than ${MIN_PRODUCTION_SECRET_LENGTH} characters, refused in production`;
  return undefined;
}
