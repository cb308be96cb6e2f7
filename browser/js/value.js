// value.js returns the text of a field or editable element.
(function () {
  return (this.localName === 'input' || this.localName === 'textarea') ? this.value : this.innerText.trim();
})
