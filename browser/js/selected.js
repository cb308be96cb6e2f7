// selected.js reports what the widget shows as chosen after the click.
(function () {
  const el = this;
  if (el.localName === 'input' || el.localName === 'textarea') return el.value;
  const s = el.querySelector('[role=option][aria-selected=true]');
  return ((s || el).innerText || '').replace(/\s+/g, ' ').trim().slice(0, 100);
})
