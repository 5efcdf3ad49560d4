/**
 * The preview's stylesheet and script, kept in the bundle (never read from disk):
 * tabs, the search box (served: docsctl's search behind /_docsctl/search; static: an
 * index written with the copy), and live reload (served: server-sent events).
 */

export const STYLE = `
:root{--fg:#1f2328;--dim:#656d76;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;--accent:#0969da;--info:#0969da;--warning:#9a6700;--danger:#cf222e;--success:#1a7f37}
*{box-sizing:border-box}
body.pv{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
.pv-banner{background:#fff8c5;border-bottom:1px solid #d4a72c;padding:6px 24px;font-size:14px}
.pv-top{display:flex;align-items:center;gap:24px;padding:12px 24px;border-bottom:1px solid var(--line);position:sticky;top:0;background:var(--bg);z-index:2}
.pv-site{font-weight:700;font-size:18px;color:var(--fg);white-space:nowrap}
.pv-sections{display:flex;gap:4px;flex-wrap:wrap;flex:1}
.pv-tab{padding:4px 10px;border-radius:6px;color:var(--dim)}.pv-tab.pv-current{background:var(--soft);color:var(--fg);font-weight:600}
.pv-search{position:relative;margin-left:auto}.pv-search-input{width:240px;padding:6px 10px;border:1px solid var(--line);border-radius:6px;font:inherit;font-size:14px}
.pv-search-results{position:absolute;right:0;top:38px;width:360px;max-height:60vh;overflow:auto;background:var(--bg);border:1px solid var(--line);border-radius:6px;box-shadow:0 8px 24px rgba(0,0,0,.12);padding:6px}
.pv-search-results a{display:block;padding:6px 8px;border-radius:4px}.pv-search-results a:hover{background:var(--soft);text-decoration:none}
.pv-variants{display:flex;gap:8px;padding:8px 24px;border-bottom:1px solid var(--line);font-size:14px}
.pv-variant{padding:2px 8px;border:1px solid var(--line);border-radius:12px;color:var(--dim)}.pv-variant.pv-current{border-color:var(--accent);color:var(--accent)}
.pv-layout{display:flex;max-width:1200px;margin:0 auto}
.pv-sidebar{width:280px;flex:none;padding:24px 16px;border-right:1px solid var(--line);font-size:14px;min-height:calc(100vh - 60px)}
.pv-sidebar ul{list-style:none;margin:0;padding:0}.pv-sidebar ul ul{padding-left:14px;border-left:1px solid var(--line);margin-left:8px}
.pv-sidebar a,.pv-sidebar span{display:block;padding:4px 8px;border-radius:6px;color:var(--fg)}
.pv-sidebar a.pv-current{background:#ddf4ff;color:var(--accent);font-weight:600}
.pv-group-title{margin-top:14px;font-size:12px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--dim)!important}
.pv-computed span{color:var(--dim)}
.pv-main{flex:1;min-width:0;padding:32px 48px}
.pv-content{max-width:760px}
.pv-title{font-size:32px;line-height:1.25;margin:0 0 8px}.pv-description{color:var(--dim);font-size:18px;margin-top:0}
.pv-content h2{border-bottom:1px solid var(--line);padding-bottom:4px;margin-top:32px}
.pv-content img{max-width:100%}
.pv-content table{border-collapse:collapse;margin:16px 0}.pv-content th,.pv-content td{border:1px solid var(--line);padding:6px 12px}.pv-content th{background:var(--soft)}
.pv-content blockquote{margin:0;padding:0 16px;color:var(--dim);border-left:4px solid var(--line)}
.pv-content code{font:14px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:2px 5px;border-radius:4px}
.pv-content pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:14px 16px;overflow:auto}.pv-content pre code{background:none;padding:0}
.pv-content li.gb-task{list-style:none;margin-left:-22px}
.pv-content a.gb-broken{color:var(--danger);text-decoration:line-through dotted}
.gb-hint{border-left:4px solid var(--info);background:#ddf4ff;border-radius:6px;padding:4px 16px;margin:16px 0}
.gb-hint-warning{border-color:var(--warning);background:#fff8c5}.gb-hint-danger{border-color:var(--danger);background:#ffebe9}.gb-hint-success{border-color:var(--success);background:#dafbe1}
.gb-tabs{border:1px solid var(--line);border-radius:6px;margin:16px 0;overflow:hidden}
.gb-tab-list{display:none;background:var(--soft);border-bottom:1px solid var(--line)}
.gb-tab-button{font:inherit;font-size:14px;border:0;background:none;padding:8px 14px;cursor:pointer;color:var(--dim)}.gb-tab-button.gb-active{color:var(--fg);box-shadow:inset 0 -2px var(--accent);font-weight:600}
.gb-tab-panel{padding:4px 16px}.gb-tab-title{font-weight:600;font-size:14px;color:var(--dim);margin-top:8px}
.pv-js .gb-tab-list{display:flex}.pv-js .gb-tab-title{display:none}.pv-js .gb-tab-panel:not(.gb-active){display:none}
.gb-code-title{font:13px ui-monospace,monospace;background:var(--soft);border:1px solid var(--line);border-bottom:0;border-radius:6px 6px 0 0;padding:6px 12px}.gb-code-title+pre{margin-top:0;border-top-left-radius:0;border-top-right-radius:0}
.gb-file,.gb-embed,.gb-content-ref,.gb-include,.gb-openapi{border:1px solid var(--line);border-radius:6px;padding:10px 14px;margin:16px 0}
.gb-file-link::before{content:"↓ ";font-weight:700}.gb-content-ref-link{font-weight:600}.gb-content-ref-link::after{content:" →"}.gb-embed-link::after{content:" ↗"}
.gb-content-ref-url{color:var(--dim);font:13px ui-monospace,monospace}.gb-content-ref-link:not(:empty)+.gb-content-ref-url{display:none}
.gb-openapi-method{font-weight:700;color:var(--success)}.gb-include{color:var(--dim)}
.gb-stepper{counter-reset:step}.gb-step{counter-increment:step;position:relative;padding-left:40px;margin:16px 0}.gb-step::before{content:counter(step);position:absolute;left:0;top:2px;width:26px;height:26px;border-radius:50%;background:var(--soft);border:1px solid var(--line);text-align:center;line-height:24px;font-size:13px}
.gb-columns{display:flex;gap:24px}.gb-column{flex:1;min-width:0}
.gb-update-date{font-weight:700;color:var(--dim)}
.pv-pagination{display:flex;justify-content:space-between;gap:16px;max-width:760px;margin-top:48px}
.pv-pagination>*{flex:1}.pv-pagination a{border:1px solid var(--line);border-radius:6px;padding:10px 14px}.pv-next{text-align:right}
.pv-dim{display:block;font-size:12px;color:var(--dim)}
.pv-results li{margin:12px 0}.pv-results p{margin:2px 0;color:var(--dim);font-size:14px}
.pv-footer{border-top:1px solid var(--line);color:var(--dim);font-size:12px;padding:12px 24px;text-align:center}
.hljs-comment,.hljs-quote{color:#6e7781;font-style:italic}.hljs-keyword,.hljs-selector-tag,.hljs-doctag,.hljs-template-tag{color:#cf222e}
.hljs-string,.hljs-regexp,.hljs-addition,.hljs-attribute{color:#0a3069}.hljs-number,.hljs-literal,.hljs-variable,.hljs-template-variable,.hljs-attr,.hljs-meta{color:#0550ae}
.hljs-title,.hljs-section,.hljs-built_in,.hljs-type{color:#8250df}.hljs-name,.hljs-tag,.hljs-symbol,.hljs-bullet{color:#116329}.hljs-deletion{color:#82071e;background:#ffebe9}.hljs-emphasis{font-style:italic}.hljs-strong{font-weight:700}
@media (max-width:800px){.pv-sidebar{display:none}.pv-main{padding:20px}.pv-top{flex-wrap:wrap}}
`;

/** The preview's icon: a page with a fold, in the accent colour. */
export const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M7 3h13l6 6v20H7z" fill="#0969da"/><path d="M20 3v6h6" fill="#9cd1ff"/><path d="M11 15h11M11 19h11M11 23h7" stroke="#fff" stroke-width="2"/></svg>
`;

export const SCRIPT = `(function () {
  'use strict';
  var root = document.documentElement;
  root.classList.add('pv-js');
  var body = document.body;
  var mode = body.getAttribute('data-pv-mode');

  // Tabs: the buttons show one panel at a time.
  var tabsList = document.querySelectorAll('.pv-content .gb-tabs');
  for (var t = 0; t < tabsList.length; t++) {
    (function (tabs) {
      var buttons = tabs.querySelectorAll(':scope > .gb-tab-list > .gb-tab-button');
      var panels = tabs.querySelectorAll(':scope > .gb-tab-panel');
      function show(index) {
        for (var i = 0; i < panels.length; i++) panels[i].classList.toggle('gb-active', i === index);
        for (var j = 0; j < buttons.length; j++) buttons[j].classList.toggle('gb-active', j === index);
      }
      for (var b = 0; b < buttons.length; b++) {
        (function (index) { buttons[index].addEventListener('click', function () { show(index); }); })(b);
      }
      show(0);
    })(tabsList[t]);
  }

  // Static copy: search the index written with it.
  var form = document.querySelector('.pv-top .pv-search');
  if (form && mode === 'static') {
    var input = form.querySelector('.pv-search-input');
    var box = form.querySelector('.pv-search-results');
    var variant = body.getAttribute('data-pv-variant');
    var home = body.getAttribute('data-pv-home') || 'index.html';
    var prefix = home.slice(0, home.length - 'index.html'.length);
    function search(query) {
      var index = (window.__docsctlSearch || {})[variant] || [];
      var words = query.toLowerCase().split(/\\s+/).filter(Boolean);
      var hits = [];
      for (var i = 0; i < index.length && words.length; i++) {
        var item = index[i], title = item.t.toLowerCase(), text = item.x.toLowerCase(), score = 0;
        for (var w = 0; w < words.length; w++) {
          if (title.indexOf(words[w]) !== -1) score += 3;
          else if (text.indexOf(words[w]) !== -1) score += 1;
          else { score = 0; break; }
        }
        if (score > 0) hits.push({ item: item, score: score });
      }
      hits.sort(function (a, b) { return b.score - a.score; });
      box.textContent = '';
      if (!hits.length) { var none = document.createElement('p'); none.textContent = 'No results'; box.appendChild(none); }
      for (var h = 0; h < hits.length && h < 20; h++) {
        var a = document.createElement('a');
        a.href = prefix + hits[h].item.u;
        a.textContent = hits[h].item.t;
        box.appendChild(a);
      }
      box.hidden = false;
    }
    form.addEventListener('submit', function (event) { event.preventDefault(); search(input.value); });
    input.addEventListener('input', function () { if (input.value.trim()) search(input.value); else box.hidden = true; });
  }

  // Served: reload when the content changes (the server closes the stream with a reload event).
  if (mode === 'served' && window.EventSource) {
    var version = body.getAttribute('data-pv-version');
    var events = new EventSource('/_docsctl/events?since=' + encodeURIComponent(version));
    events.addEventListener('reload', function () { events.close(); location.reload(); });
  }
})();
`;
