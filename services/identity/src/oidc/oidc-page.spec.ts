import { signInPage } from './oidc-page';

describe('signInPage', () => {
  it('shows the message and a link home', () => {
    const html = signInPage('Sign-in with this provider is not configured on this site.');
    expect(html).toContain('<p>Sign-in with this provider is not configured on this site.</p>');
    expect(html).toContain('<a href="/">Go Home</a>');
  });

  it('escapes the message', () => {
    expect(signInPage('<script>alert("x")</script> & \'more\'')).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;',
    );
  });
});
