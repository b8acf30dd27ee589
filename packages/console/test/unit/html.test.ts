import { html, jsonBlock } from '../../src/html';

describe("the console's markup", () => {
  it('escapes every interpolated value, so text from the API or a user never becomes markup', () => {
    const hostile = `<script>alert("x")</script>' onfocus='x`;
    expect(html`<p title="${hostile}">${hostile}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onfocus=&#39;x">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onfocus=&#39;x</p>',
    );
  });

  it('inserts markup built by the tag as it is, lists joined, and nothing for absent values', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    // prettier-ignore
    const markup = html`<ul>${items}</ul>${undefined}${false}${null}`;
    expect(markup.value).toBe('<ul><li>a&lt;b</li><li>c</li></ul>');
  });

  it('keeps JSON for a script block from closing the element', () => {
    const block = jsonBlock({ label: '</script><script>alert(1)</script>' }).value;
    expect(block).not.toContain('<');
    expect(JSON.parse(block)).toEqual({ label: '</script><script>alert(1)</script>' });
  });
});
