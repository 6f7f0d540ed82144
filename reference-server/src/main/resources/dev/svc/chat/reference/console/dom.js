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

export function time(iso) {
  if (!iso) {
    return '';
  }
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleTimeString();
}

/** Returns the message's parts as one line of text; other kinds of parts by their type. */
export function partsText(parts) {
  return (parts || []).map((p) => (p.type === 'text' ? p.text : '[' + p.type + ']')).join(' ');
}
