// fileInputState.js reports whether a file input is disabled, takes several
// files, and what it accepts.
(function () { return {disabled: this.disabled, multiple: this.multiple, accept: this.accept || ''}; })
