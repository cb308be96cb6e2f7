// origin.js gives the origin of the document an element is in.
(function () { return this.ownerDocument.location.origin; })
