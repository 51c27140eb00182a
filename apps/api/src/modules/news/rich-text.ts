import sanitizeHtml from 'sanitize-html';

/** The only elements a post body may contain: text structure and links, nothing that runs or loads. */
export const RICH_TEXT_TAGS = [
  'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'hr', 'a',
] as const;

export const LINK_REL = 'noopener noreferrer nofollow';

// Checked on the decoded attribute value, so entity- or whitespace-obfuscated schemes
// ("jav&#x09;ascript:", " javascript:") never match and the link loses its href.
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

const options: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  allowedClasses: {},
  allowedStyles: {},
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  // Their text content is code or markup, never prose: drop it with the tag.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'noembed', 'noframes', 'xmp', 'svg', 'math', 'title', 'object'],
  transformTags: {
    // Relative links would point into whichever app shows the post; only absolute ones mean something.
    a: (tagName, attribs) => {
      const href = attribs['href']?.trim();
      // A fixed attribute order keeps the output stable: sanitising it again changes nothing.
      const ordered: Record<string, string> = {};
      if (href && SAFE_HREF.test(href)) ordered['href'] = href;
      if (attribs['title'] !== undefined) ordered['title'] = attribs['title'];
      if (attribs['target'] === '_blank' || attribs['target'] === '_self') ordered['target'] = attribs['target'];
      ordered['rel'] = LINK_REL;
      return { tagName, attribs: ordered };
    },
  },
};

/**
 * Sanitises a post body against the allow-list on every write (the web editor's own cleaning is a
 * convenience, never the defence): no scripts, styles, event handlers, frames, images or SVG; links
 * only to http, https and mailto, always with rel="noopener noreferrer nofollow".
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options).trim();
}
