/**
 * Reading a JUnit XML report (pytest's --junitxml): each <testcase> with its attributes and
 * whether it holds a <failure>, an <error> or a <skipped>, with the message and text. Only what
 * the report format uses: elements, attributes in double quotes, entities, CDATA.
 */

export interface JUnitCase {
  attrs: Record<string, string>;
  outcome: 'passed' | 'failed' | 'skipped';
  message: string;
  text: string;
}

const CASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
const ATTR = /([\w:-]+)="([^"]*)"/g;
const PROBLEM = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/;

export function parseJUnit(xml: string): JUnitCase[] {
  const out: JUnitCase[] = [];
  for (const m of xml.matchAll(CASE)) {
    const attrs = attributes(m[1]);
    const body = m[2] ?? '';
    const p = PROBLEM.exec(body);
    if (p) {
      out.push({ attrs, outcome: 'failed', message: attributes(p[2]).message ?? '', text: decode(p[3] ?? '') });
    } else if (/<skipped\b/.test(body)) {
      out.push({ attrs, outcome: 'skipped', message: '', text: '' });
    } else {
      out.push({ attrs, outcome: 'passed', message: '', text: '' });
    }
  }
  return out;
}

function attributes(s: string): Record<string, string> {
  const a: Record<string, string> = {};
  for (const m of s.matchAll(ATTR)) a[m[1]] = decode(m[2]);
  return a;
}

export function decode(s: string): string {
  return s
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&#x([0-9a-fA-F]+);/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
