import { escapeHtml } from '../html-escape';

/** The small page a browser sees when the third-party sign-in cannot go ahead: the reason and a way home. */
export function signInPage(message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in</title>
</head>
<body>
<main>
<h1>Sign-in</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/">Go Home</a></p>
</main>
</body>
</html>
`;
}
