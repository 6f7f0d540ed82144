// Small DOM helpers. Every text goes in through textContent, so nothing a user typed is ever parsed as HTML.

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') {
      node.textContent = value;
    } else if (key === 'class') {
      node.className = value;
    } else if (key === 'on') {
      for (const [event, handler] of Object.entries(value)) {
        node.addEventListener(event, handler);
      }
    } else if (value !== undefined && value !== null) {
      node.setAttribute(key, String(value));
    }
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function replaceRows(tbody, rows) {
  tbody.replaceChildren(...rows);
}

// toLocaleTimeString's format, made once: a formatter per call costs more than the rest of a row.
const TIME = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' });

export function time(iso) {
  if (!iso) {
    return '';
  }
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : TIME.format(d);
}

/** Returns the message's text parts as one line; the other parts are shown apart (views.js). */
export function partsText(parts) {
  return (parts || []).filter((p) => p.type === 'text').map((p) => p.text).join(' ');
}

/** Returns a byte count as people read it: 812 B, 4.2 KiB, 3.1 MiB. */
export function bytes(n) {
  if (n < 1024) {
    return n + ' B';
  }
  const units = ['KiB', 'MiB', 'GiB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return value.toFixed(1) + ' ' + units[unit];
}
