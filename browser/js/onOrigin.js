// onOrigin.js reports whether the document is on the origin yet.
(function (origin) {
  return location.origin === origin;
})
