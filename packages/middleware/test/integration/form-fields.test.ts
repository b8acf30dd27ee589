import { formFields, secondsSinceRender, signRenderTime } from '@spam-check/middleware';

describe('the signed render time and the hidden fields', () => {
  it('when the render time is signed with the secret, it gives the seconds since the form was rendered', () => {
    const rendered = signRenderTime('secret', 1_000_000);
    expect(secondsSinceRender(rendered, 'secret', 1_012_500)).toBe(12.5);
  });

  it('when the value is missing, forged, signed with another secret or from the future, it gives nothing', () => {
    const rendered = signRenderTime('secret', 1_000_000);
    const [, signature] = rendered.split('.');
    expect(secondsSinceRender(undefined, 'secret')).toBeUndefined();
    expect(secondsSinceRender(`999000.${signature}`, 'secret', 1_012_500)).toBeUndefined();
    expect(secondsSinceRender(rendered, 'other-secret', 1_012_500)).toBeUndefined();
    expect(secondsSinceRender(rendered, 'secret', 999_000)).toBeUndefined();
    expect(secondsSinceRender('not-a-value', 'secret')).toBeUndefined();
  });

  it('when the fields are rendered, the honeypot is hidden from people and the render time is a hidden input', () => {
    const html = formFields({ secret: 'secret', honeypotField: 'homepage', now: 5000 });
    expect(html).toContain('aria-hidden="true"');
    expect(html).toMatch(/<input type="text" name="homepage" value="" tabindex="-1" autocomplete="off">/);
    expect(html).toContain(`name="spam_check_ts" value="${signRenderTime('secret', 5000)}"`);
  });
});
