import { closingQuote } from '../../../../shared/jsonText.ts';

/**
 * JSON text laid out two spaces to a level, for reading: strings and numbers are copied as the
 * file writes them (a key written twice stays twice, 1e400 stays 1e400, escapes stay escapes);
 * only the white space between them is the dashboard's. Null when the text is not JSON.
 */
export function formatJsonText(text: string): string | null {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    JSON.parse(json);
  } catch {
    return null;
  }
  let out = '';
  let depth = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let at = 0; at < json.length; at++) {
    const char = json[at]!;
    switch (char) {
      case '"': {
        const end = closingQuote(json, at);
        out += json.slice(at, end + 1);
        at = end;
        break;
      }
      case ' ':
      case '\n':
      case '\r':
      case '\t':
        break;
      case '{':
      case '[': {
        let next = at + 1;
        while (next < json.length && ' \n\r\t'.includes(json[next]!)) next++;
        // An empty object or array stays on its line.
        if (json[next] === (char === '{' ? '}' : ']')) {
          out += char + json[next];
          at = next;
          break;
        }
        depth++;
        out += char + newline();
        break;
      }
      case '}':
      case ']':
        depth--;
        out += newline() + char;
        break;
      case ',':
        out += ',' + newline();
        break;
      case ':':
        out += ': ';
        break;
      default:
        out += char;
    }
  }
  return out;
}
