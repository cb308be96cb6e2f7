// A live view's URL reloaded without its token: the tab kept it in its
// session storage when the page moved it out of the address bar.
'use strict';
(() => {
  const id = location.pathname.split('/')[2];
  const token = sessionStorage.getItem('lv-token-' + id);
  if (token) location.replace(location.pathname + '?t=' + encodeURIComponent(token));
})();
