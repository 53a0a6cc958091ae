/// The review page's furniture: style sheet, panel and script, all inline (the page loads nothing).
///
/// The panel switches the view (marked, clean, original: a class on `<body>` that the style sheet
/// reads) and lists every change (`[data-change]`) and comment (`aside.comment`) found in the page,
/// filtered by author and kind; each entry scrolls to its place; each comment is moved level with its
/// anchor in the margin. `page.html#clean` (or `#original`) opens in that view. Without the script the
/// page is still the marked version with comments in the margin, beside their paragraphs. On paper
/// (printing, or `page.html#print`, which the PDF writer's Chromium opens) each comment is floated into
/// the margin from its anchor's line, so the browser's own page layout keeps it on its anchor's page.
/// A paragraph-format change ends in a pilcrow in its author's colour (an inserted or deleted paragraph
/// break is one already).
enum ReviewPage {
    /// How many author colours there are (`a0`…`a5`); authors beyond reuse them in turn.
    static let authorColours = 6

    static let css = """
    :root{--a0:#1f5fbf;--a1:#b03a2e;--a2:#2e7d32;--a3:#8e44ad;--a4:#c06c00;--a5:#00838f}
    .a0{--c:var(--a0)}.a1{--c:var(--a1)}.a2{--c:var(--a2)}.a3{--c:var(--a3)}.a4{--c:var(--a4)}.a5{--c:var(--a5)}
    body{font-family:Georgia,serif;margin:0;line-height:1.5;color:#222}
    main{max-width:40em;margin:1.5em 21em 3em 19em;padding:0 1em;position:relative}
    ins{color:var(--c,#05631f);text-decoration:underline;text-decoration-color:var(--c,#05631f);background:none}
    del{color:var(--c,#86181d);text-decoration:line-through}
    ins.move,del.move{text-decoration-style:double}
    :is(p,h1,h2,h3,h4,h5,h6,li,td,th):is(:has(ins,del,.format-change),.style-changed){position:relative}
    :is(p,h1,h2,h3,h4,h5,h6,li):is(:has(ins,del,.format-change),.style-changed)::before{content:"";position:absolute;left:-.9em;top:0;bottom:0;border-left:2px solid #888}
    mark{background:#fff5b1}
    .comment-range{background:#fdf2c4;border-bottom:1px dotted #b08800}
    .comment-ref{font-size:.75em;color:#b08800}
    aside.comment{float:right;clear:right;width:17em;margin:0 -19.5em .6em 0;border-left:3px solid var(--c,#b08800);padding:.2em .7em;font-size:.85em;line-height:1.35;background:#fffbea}
    aside.comment.placed{position:absolute;float:none;right:-18.5em;margin:0}
    aside.comment.resolved{opacity:.6}
    aside.comment .reply{margin-top:.3em;border-left:2px solid var(--c,#ddd);padding-left:.6em}
    aside.comment p{margin:.2em 0}
    .comment-meta{color:var(--c,#666);font-size:.85em;font-family:system-ui,sans-serif}
    .format-change{border-bottom:2px dotted var(--c,#6f42c1)}
    .break{color:#999}
    table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em}
    tr.inserted{background:#e6ffed}tr.deleted{background:#ffeef0;text-decoration:line-through}
    section.footnotes{border-top:1px solid #ccc;margin-top:2em;font-size:.9em}
    nav#review{position:fixed;top:0;left:0;bottom:0;width:16em;overflow:auto;padding:.8em 1em;background:#f6f7f9;border-right:1px solid #ddd;font:13px/1.4 system-ui,sans-serif}
    nav#review h2{font-size:14px;margin:.2em 0 .5em}
    nav#review select{width:100%;margin:.2em 0}
    nav#review ol{list-style:none;padding:0;margin:.5em 0}
    nav#review li{margin:0 0 .4em;padding-left:.5em;border-left:3px solid var(--c,#999)}
    nav#review li a{color:inherit;text-decoration:none;display:block}
    nav#review li .kind{color:var(--c,#666);font-weight:600}
    .flash{outline:3px solid #f5a623;outline-offset:2px}
    body.clean del,body.clean .break,body.clean tr.deleted,body.original ins,body.original tr.inserted{display:none}
    body.clean ins,body.original del{color:inherit;text-decoration:none}
    body.clean tr.inserted,body.original tr.deleted{background:none;text-decoration:none}
    body:not(.marked) :is(aside.comment,.comment-ref){display:none}
    body:not(.marked) .comment-range{background:none;border:0}
    body:not(.marked) .format-change{border:0}
    body:not(.marked) :is(p,h1,h2,h3,h4,h5,h6,li)::before{display:none}
    @media (max-width:72em){nav#review{position:static;width:auto;border:0;border-bottom:1px solid #ddd}main{margin:1em auto}aside.comment,aside.comment.placed{position:static;float:none;width:auto;margin:.3em 0 1em 2em}}
    :is(p,h1,h2,h3,h4,h5,h6,li).style-changed::after{content:"\\b6";color:var(--c,#6f42c1);border-bottom:2px dotted var(--c,#6f42c1);margin-left:.2em}
    body:not(.marked) .style-changed::after{display:none}
    @media print{@page{margin:16mm 12mm}nav#review{display:none}body{font-size:10.5pt}main{max-width:none;margin:0 15.5em 0 1.2em;padding:0}
    aside.comment,aside.comment.placed{position:static;float:right;clear:right;width:14em;margin:0 -15.5em .4em 0;font-size:8pt;font-weight:normal;font-style:normal;text-align:left;text-indent:0}}
    """

    /// A page without the panel (nothing to review): the text centred, no margin kept for the panel or for
    /// comments (after `css`, so it wins).
    static let plainCSS = """
    main{margin:1.5em auto 3em}
    @media print{main{margin:0 auto}}
    """

    /// The panel; with `listing` (the source's changes as `redline changes` counts them) its total of changes is
    /// that number, which also counts changes the page cannot show.
    static func panel(listing: Int?) -> String {
        guard let n = listing else { return panel }
        return panel.replacingOccurrences(of: "<nav id=\"review\"", with: "<nav id=\"review\" data-changes=\"\(n)\"")
    }

    static let panel = """
    <nav id="review" aria-label="Review">
    <h2>Review</h2>
    <div role="radiogroup" aria-label="View"><label><input type="radio" name="view" value="marked" checked> marked</label>
    <label><input type="radio" name="view" value="clean"> clean</label>
    <label><input type="radio" name="view" value="original"> original</label></div>
    <select id="filter-author" aria-label="Author"><option value="">All authors</option></select>
    <select id="filter-kind" aria-label="Kind"><option value="">All changes and comments</option><option value="insertion">Insertions</option><option value="deletion">Deletions</option><option value="substitution">Substitutions</option><option value="move">Moves</option><option value="format">Formatting</option><option value="comment">Comments</option></select>
    <div id="review-count"></div>
    <ol id="review-items"></ol>
    </nav>

    """

    static let script = """
    (function(){
    var items=[],byAuthor={};
    function colour(e){var m=/\\ba\\d\\b/.exec(e.className);return m?m[0]:'';}
    document.querySelectorAll('[data-change],aside.comment').forEach(function(e){
      var comment=e.tagName==='ASIDE',text;
      if(comment){var b=e.querySelector('.comment-meta');text=b&&b.nextElementSibling?b.nextElementSibling.textContent:e.textContent;}
      else{text=e.textContent;if(e.dataset.change==='substitution'&&e.nextElementSibling&&e.nextElementSibling.tagName==='INS'){text+=' → '+e.nextElementSibling.textContent;}}
      var a=e.dataset.author||'Anonymous';
      items.push({el:e,kind:comment?'comment':e.dataset.change,author:a,text:text.trim().replace(/\\s+/g,' ').slice(0,90),cls:colour(e)});
      byAuthor[a]=colour(e);
    });
    // One item per change as `redline changes` counts them: the source's count, where the page was given it, also
    // counts changes the page cannot show (a table's or section's tracked layout).
    var shown=items.filter(function(it){return it.kind!=='comment';}).length;
    var hidden=Math.max(0,(+document.getElementById('review').getAttribute('data-changes')||0)-shown);
    var sel=document.getElementById('filter-author'),kind=document.getElementById('filter-kind');
    Object.keys(byAuthor).sort().forEach(function(a){var o=document.createElement('option');o.value=a;o.textContent=a;sel.appendChild(o);});
    var list=document.getElementById('review-items'),count=document.getElementById('review-count');
    function render(){
      list.textContent='';var n=0;
      items.forEach(function(it){
        if(sel.value&&it.author!==sel.value)return;if(kind.value&&it.kind!==kind.value)return;n++;
        var li=document.createElement('li');li.className=it.cls;var a=document.createElement('a');a.href='#'+it.el.id;
        var k=document.createElement('span');k.className='kind';k.textContent=it.kind+' · '+it.author;
        a.appendChild(k);a.appendChild(document.createElement('br'));a.appendChild(document.createTextNode(it.text||'(empty)'));
        a.addEventListener('click',function(ev){ev.preventDefault();
          var m=document.querySelector('input[name=view][value=marked]');if(!m.checked){m.checked=true;document.body.className='marked';}
          it.el.scrollIntoView({block:'center'});it.el.classList.add('flash');setTimeout(function(){it.el.classList.remove('flash');},1500);});
        li.appendChild(a);list.appendChild(li);
      });
      count.textContent=n+' of '+(items.length+hidden)+' changes and comments'+(hidden>0?' ('+hidden+' not shown on this page: see redline changes)':'');
    }
    sel.addEventListener('change',render);kind.addEventListener('change',render);
    document.querySelectorAll('input[name=view]').forEach(function(r){r.addEventListener('change',function(){document.body.className=r.value;});});
    // Each comment level with its anchor's line in the margin (without the script: beside its paragraph).
    var paper=false;
    function place(){
      if(paper)return;
      var main=document.querySelector('main'),base=main.getBoundingClientRect().top,below=0;
      document.querySelectorAll('aside.comment').forEach(function(a){
        var ref=main.querySelector('.comment-ref a[href="#'+CSS.escape(a.id)+'"]');if(!ref)return;
        a.classList.add('placed');
        var top=ref.getBoundingClientRect().top-base;if(top<below)top=below;
        a.style.top=top+'px';below=top+a.offsetHeight+8;
      });
    }
    document.querySelectorAll('input[name=view]').forEach(function(r){r.addEventListener('change',place);});
    window.addEventListener('resize',place);window.addEventListener('load',place);
    // On paper: each comment floated from its anchor's line; back to the margin layout afterwards.
    function toPaper(){
      paper=true;
      document.querySelectorAll('aside.comment').forEach(function(a){
        var ref=document.querySelector('.comment-ref a[href="#'+CSS.escape(a.id)+'"]');if(!ref)return;
        if(!a.home)a.home=[a.parentNode,a.nextSibling];
        a.classList.remove('placed');a.style.top='';
        var sup=ref.parentNode;sup.parentNode.insertBefore(a,sup.nextSibling);
      });
    }
    function fromPaper(){
      Array.prototype.slice.call(document.querySelectorAll('aside.comment')).reverse().forEach(function(a){
        if(a.home){a.home[0].insertBefore(a,a.home[1]);a.home=null;}
      });
      paper=false;place();
    }
    window.addEventListener('beforeprint',toPaper);window.addEventListener('afterprint',fromPaper);
    var start=location.hash.slice(1),r=document.querySelector('input[name=view][value="'+start+'"]');
    if(start==='print')toPaper();
    if(r){r.checked=true;document.body.className=start;}
    render();place();
    })();
    """
}
