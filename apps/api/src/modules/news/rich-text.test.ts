import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { LINK_REL, RICH_TEXT_TAGS, sanitizeRichText } from './rich-text.ts';

type Node = DefaultTreeAdapterMap['childNode'];

/**
 * Known XSS vectors (OWASP filter-evasion cheat sheet, PortSwigger's XSS cheat sheet, DOMPurify's
 * mutation-XSS reports). Each one must come out with nothing a browser would run.
 */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/xss.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(1);">',
  '<p onclick="alert(1)">click</p>',
  '<p onmouseover=alert(1)>hover</p>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="VBSCRIPT:msgbox(1)">x</a>',
  '<a href="//evil.example">protocol-relative</a>',
  '<a href="https://ok.example" onclick="alert(1)" style="color:red">x</a>',
  '<a href="https://ok.example" target="javascript:alert(1)">x</a>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math href="javascript:alert(1)">x</math>',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<p style="background-image:url(javascript:alert(1))">x</p>',
  '<p style="width:expression(alert(1))">x</p>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<body onload=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<textarea><script>alert(1)</script></textarea>',
  '<xmp><script>alert(1)</script></xmp>',
  '<title><script>alert(1)</script></title>',
  '<p title="</p><script>alert(1)</script>">x</p>',
  '<a title="&quot; onmouseover=&quot;alert(1)" href="https://ok.example">x</a>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<p>ok</p><!--><script>alert(1)</script>-->',
  '"><script>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<div><p><svg><style><img src=x onerror=alert(1)></style></svg></p></div>',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<a href="https://ok.example"><img src=x onerror=alert(1)></a>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<isindex type=image src=1 onerror=alert(1)>',
  '<h2 id="x" class="evil" data-x="1">heading</h2>',
];

const ALLOWED_TAGS = new Set<string>(RICH_TEXT_TAGS);
const ALLOWED_A_ATTRIBUTES = new Set(['href', 'title', 'target', 'rel']);

/**
 * Parses the output as a browser would (parse5 follows the HTML standard), so that a string which
 * only turns dangerous after re-parsing (mutation XSS) is caught too.
 */
function dangers(html: string): string[] {
  const found: string[] = [];
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if (!('tagName' in node)) continue;
      if (!ALLOWED_TAGS.has(node.tagName)) found.push(`element <${node.tagName}>`);
      for (const attribute of node.attrs) {
        if (node.tagName !== 'a' || !ALLOWED_A_ATTRIBUTES.has(attribute.name)) {
          found.push(`attribute ${attribute.name} on <${node.tagName}>`);
        } else if (attribute.name === 'href' && !/^(https?:\/\/|mailto:)/i.test(attribute.value)) {
          found.push(`href ${attribute.value}`);
        } else if (attribute.name === 'target' && !['_blank', '_self'].includes(attribute.value)) {
          found.push(`target ${attribute.value}`);
        }
      }
      walk(node.childNodes);
    }
  };
  walk(parseFragment(html).childNodes);
  return found;
}

describe('sanitizeRichText', () => {
  it.each(PAYLOADS)('leaves nothing executable in %s', (payload) => {
    const output = sanitizeRichText(payload);
    expect(dangers(output)).toEqual([]);
    expect(output).not.toMatch(/<\s*(script|svg|math|iframe|style|img|object|embed|form|input|base|meta|link)/i);
    // Escaped text inside a title is harmless; anywhere else these must be gone.
    const outsideAttributes = output.replace(/"[^"]*"/g, '""');
    expect(outsideAttributes).not.toMatch(/\son[a-z]+\s*=/i);
    expect(outsideAttributes).not.toMatch(/(javascript|vbscript|data)\s*:/i);
    // Sanitising is stable: what comes out is what a second pass would keep.
    expect(sanitizeRichText(output)).toBe(output);
  });

  it('keeps the formatting the editor offers', () => {
    const html =
      '<h2>Titolo</h2><p>Testo <strong>forte</strong>, <b>b</b>, <em>enfasi</em>, <i>i</i>, <u>u</u>, <s>s</s><br />riga</p>' +
      '<ul><li>uno</li></ul><ol><li>due</li></ol><blockquote>citazione</blockquote><pre><code>x = 1</code></pre><hr /><h3>a</h3><h4>b</h4>';
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('keeps http, https and mailto links and marks them noopener noreferrer nofollow', () => {
    const output = sanitizeRichText(
      '<a href="https://example.com/a?b=1&amp;c=2" title="Sito" target="_blank">sito</a> <a href="mailto:info@example.com">scrivi</a> <a href="http://example.com" rel="opener">http</a>',
    );
    expect(output).toBe(
      `<a href="https://example.com/a?b=1&amp;c=2" title="Sito" target="_blank" rel="${LINK_REL}">sito</a> ` +
        `<a href="mailto:info@example.com" rel="${LINK_REL}">scrivi</a> <a href="http://example.com" rel="${LINK_REL}">http</a>`,
    );
  });

  it('drops the href of relative and protocol-relative links but keeps their text', () => {
    expect(sanitizeRichText('<a href="/admin">a</a><a href="//evil.example">b</a>')).toBe(
      `<a rel="${LINK_REL}">a</a><a rel="${LINK_REL}">b</a>`,
    );
  });

  it('escapes text that looks like markup instead of dropping it', () => {
    expect(sanitizeRichText('<p>1 &lt; 2 &amp;&amp; 3 &gt; 2</p>')).toBe('<p>1 &lt; 2 &amp;&amp; 3 &gt; 2</p>');
  });

  it('leaves nothing executable in random soups of dangerous fragments', () => {
    // Pieces of the payloads above, shuffled: tag soups that only a real parser can untangle.
    const fragment = fc.constantFrom(
      '<', '>', '/', '"', "'", '=', ' ', '\n', '\t', '<!--', '-->', '<![CDATA[', ']]>', '&#x09;', '&#106;', '&colon;', '&quot;', '&lt;',
      'a', 'p', 'svg', 'math', 'style', 'script', 'img', 'iframe', 'noscript', 'template', 'mglyph', 'mtext', 'table', 'form', 'textarea', 'title',
      'href', 'src', 'onerror', 'onload', 'style', 'target', 'xlink:href', 'srcdoc', 'javascript:', 'jav\tascript:', 'data:', 'vbscript:',
      'alert(1)', 'https://ok.example', 'mailto:x@y.z', 'text',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 60 }), (parts) => {
        expect(dangers(sanitizeRichText(parts.join('')))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});
