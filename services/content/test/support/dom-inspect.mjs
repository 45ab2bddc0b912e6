// Parses documents with jsdom (a browser-faithful DOM parser) and lists their elements as JSON. Run as a
// child process because jsdom's dependencies are ES modules, which Jest's CommonJS runtime cannot load.
import { JSDOM } from 'jsdom';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const documents = JSON.parse(input);
  const results = documents.map(({ source, type }) => {
    try {
      const dom = new JSDOM(source, { contentType: type === 'xml' ? 'application/xml' : 'text/html' });
      const root = type === 'xml' ? dom.window.document.documentElement : dom.window.document.body;
      const elements = [...root.querySelectorAll('*')].map((el) => ({
        name: el.localName,
        namespace: el.namespaceURI,
        attributes: Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])),
        text: el.textContent,
        parent: el.parentElement?.localName ?? null,
      }));
      return {
        ok: true,
        root: {
          name: root.localName,
          namespace: root.namespaceURI,
          attributes: Object.fromEntries([...root.attributes].map((a) => [a.name, a.value])),
        },
        elements,
      };
    } catch (error) {
      return { ok: false, error: String(error) };
    }
  });
  process.stdout.write(JSON.stringify(results));
});
