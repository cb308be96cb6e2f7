// optionState.js reports whether an ARIA option is chosen, and its name.
(function () {
  return {selected: this.getAttribute('aria-selected') === 'true' || this.getAttribute('aria-checked') === 'true',
    name: (this.getAttribute('aria-label') || this.innerText || this.textContent || '').replace(/\s+/g, ' ').trim()};
})
