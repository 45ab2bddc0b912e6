import { escapeHtml } from '../html-escape';

/**
 * What `GET /api/auth/quick-login` answers instead of signing anyone in: a page that asks, and signs in only by a
 * same-origin POST from it. A link (in a comment, on another site) or an image can therefore never switch
 * someone's session (login CSRF); the gateway's Origin check and the POST's Fetch Metadata check guard the POST.
 */
export function quickLoginPage(type: 'teacher' | 'student'): string {
  const who = type === 'student' ? 'the demo student' : 'the demo teacher';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Demo sign-in</title>
</head>
<body>
<main>
<h1>Demo sign-in</h1>
<p>This demo site lets you try it without a password. Sign in as ${escapeHtml(who)}? Any account you are signed in to now will be signed out.</p>
<form method="post" action="/api/auth/quick-login">
<input type="hidden" name="type" value="${escapeHtml(type)}">
<button type="submit">Sign in as ${escapeHtml(who)}</button>
</form>
<p><a href="/">Cancel</a></p>
</main>
</body>
</html>
`;
}
