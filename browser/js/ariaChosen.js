// ariaChosen.js lists the names of the chosen options of a listbox.
(function () {
  return Array.from(this.querySelectorAll('[role=option]')).filter((o) => o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true')
    .map((o) => (o.getAttribute('aria-label') || o.innerText || o.textContent || '').replace(/\s+/g, ' ').trim());
})
