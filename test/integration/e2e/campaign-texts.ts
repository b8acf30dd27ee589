/** One campaign, two copies: other name, city, amounts and reply address (the near-duplicate case). */
export const CAMPAIGN = {
  title: 'Remote assistant wanted',
  body:
    'Hello Anna, we are hiring remote assistants for our team in Berlin. Flexible hours, weekly pay of ' +
    '450 EUR, no experience needed. Reply to jobs@staffing-example.com to apply today.',
};
export const VARIANT = {
  title: 'Remote assistant wanted',
  body:
    'Hello   Peter, we are hiring remote assistants for our team in Hamburg. Flexible hours, weekly pay of ' +
    '520 EUR, no experience needed. Reply to work@staffing-example.net to apply today!',
};
