// SPDX-License-Identifier: GPL-3.0-or-later
//
// Generated fixture pages, shared by the end-to-end tests and the benchmark.

export function escapeHtml(text) {
  return String(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

export function simplePage(title, body = '') {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

const STATUSES = ['Open', 'Pending', 'Closed'];

// The names every interactive element of row @i has, as an accessibility
// tree must show them: role and accessible name.
export function tableRowElements(i) {
  return [
    { role: 'checkbox', name: `Select item ${i}` },
    { role: 'link', name: `Item ${i}` },
    { role: 'combobox', name: `Status of item ${i}` },
    { role: 'button', name: `Delete item ${i}` },
  ];
}

// An app-like page: a toolbar, a search box and a table of @rows rows, each
// with a checkbox, a link, a select and a button, all named the way a real
// application names them (aria-label, label text, content).
export function tablePage(rows) {
  const body = [];
  for (let i = 1; i <= rows; i++) {
    const status = STATUSES[i % STATUSES.length];
    const options = STATUSES.map((s) => `<option${s === status ? ' selected' : ''}>${s}</option>`).join('');
    body.push(`<tr>
<td><input type="checkbox" aria-label="Select item ${i}"></td>
<td><a href="/item/${i}">Item ${i}</a></td>
<td><select aria-label="Status of item ${i}">${options}</select></td>
<td><button type="button">Delete item ${i}</button></td>
</tr>`);
  }
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Inventory (${rows} rows)</title>
<style>
body { font-family: sans-serif; margin: 0; }
header { display: flex; gap: 1em; padding: .5em 1em; background: #eee; }
table { border-collapse: collapse; margin: 1em; }
td { border-bottom: 1px solid #ddd; padding: 2px 8px; }
</style></head>
<body>
<header>
<nav aria-label="Main"><a href="/">Home</a> <a href="/reports">Reports</a></nav>
<label>Search <input type="search" placeholder="Find an item"></label>
<button type="button">New item</button>
</header>
<main>
<h1>Inventory</h1>
<table>
<thead><tr><th>Select</th><th>Item</th><th>Status</th><th>Actions</th></tr></thead>
<tbody>
${body.join('\n')}
</tbody>
</table>
</main>
</body>
</html>
`;
}

// A page of about @elements elements: sections of 50 list items, each item
// a link with a bold number in it (three elements an item).
export function hugePage(elements) {
  const parts = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Huge</title></head><body><main><h1>Huge page</h1>'];
  let made = 0;
  while (made < elements) {
    parts.push('<section><ul>');
    for (let i = 0; i < 50 && made < elements; i++, made += 3)
      parts.push(`<li><a href="#${made}">Item <b>${made}</b></a></li>`);
    parts.push('</ul></section>');
    made += 2;
  }
  parts.push('</main></body></html>');
  return parts.join('');
}
