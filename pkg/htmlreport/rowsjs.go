package htmlreport

// rowsJS draws each review table (div.rowview) from its JSON block a
// page at a time: a filter by row flags, a search over every cell
// (case-insensitive), sorting by a header (click or Enter), and paging.
// A table whose JSON says "norow" has no row-number column (each row is
// [number, flags, cells...] either way). Only the shown page is in the DOM; cells are set as text (never as
// HTML), and a bidi or invisible control is shown as a <U+202E> mark as
// the server-side tables show it. The view is kept in the URL's
// fragment (#verdicts:f=2:q=word:p=3:n=50), so a link can open a
// filtered view (the disagreements section does) and a bookmark keeps it.
const rowsJS = `
(function(){
function el(t,c,x){var e=document.createElement(t);if(c)e.className=c;if(x!=null)e.textContent=x;return e}
function fmt(n){return n.toLocaleString("en-US")}
document.querySelectorAll("div.rowview").forEach(function(box){
var src=document.getElementById(box.getAttribute("data-src"));if(!src)return;
var D=JSON.parse(src.textContent),R=D.rows,H=D.header,C=D["class"],NR=!!D.norow,key=box.getAttribute("data-key");
var f=box.querySelector("select[name=f]"),q=box.querySelector("input[name=q]"),ps=box.querySelector("select[name=n]"),
tb=box.querySelector("tbody"),st=box.querySelector(".rvstat"),pv=box.querySelector("button.prev"),nx=box.querySelector("button.next"),
pg=box.querySelector(".pageno"),hs=box.querySelectorAll("thead th");
var low=null,view=[],page=0,sc=-1,up=true,timer=0;
function cell(r,j){return NR?r[j+2]:j===0?String(r[0]):r[j+1]}
function txt(c){return typeof c==="string"?c:c.join(" ")}
function lower(){if(!low){low=R.map(function(r){var s="";for(var i=2;i<r.length;i++)s+=txt(r[i]).toLowerCase()+"\u0001";return s})}return low}
function num(j){return C[j]==="num"||C[j]==="pf"}
function sortv(){var n=num(sc),k=view.map(function(i){var c=txt(cell(R[i],sc)),x;if(n){x=parseFloat(c);return isNaN(x)?-Infinity:x}return c.toLowerCase()});
var o=view.map(function(_,m){return m});o.sort(function(a,b){var x=k[a],y=k[b],d=x<y?-1:x>y?1:a-b;return up?d:-d});view=o.map(function(m){return view[m]})}
function apply(keep){var bit=+f.value,s=q.value.trim().toLowerCase(),L=s?lower():null;view=[];
for(var i=0;i<R.length;i++){if(bit&&!(R[i][1]&bit))continue;if(s&&L[i].indexOf(s)<0)continue;view.push(i)}
if(sc>=0)sortv();if(!keep)page=0;draw()}
function show(td,c){if(typeof c==="string"){td.textContent=c;return}
c.forEach(function(x,m){if(m%2){var s=el("span","ctl","<"+x+">");s.title="an invisible control character";td.appendChild(s)}else if(x)td.appendChild(document.createTextNode(x))})}
function draw(){var n=+ps.value,pages=Math.max(1,Math.ceil(view.length/n));page=Math.max(0,Math.min(page,pages-1));
var a=page*n,b=Math.min(view.length,a+n),fr=document.createDocumentFragment();
for(var k=a;k<b;k++){var r=R[view[k]],tr=el("tr");for(var j=0;j<H.length;j++){var c=cell(r,j),cl=C[j],td=el("td");
if(cl==="pf")cl=c==="1"?"pass":c==="0"?"fail":"num";td.className=cl;show(td,c);tr.appendChild(td)}fr.appendChild(tr)}
tb.textContent="";tb.appendChild(fr);
st.textContent=view.length?"Rows "+fmt(a+1)+" to "+fmt(b)+" of "+fmt(view.length)+(view.length<R.length?" (of "+fmt(R.length)+" here)":""):"No row matches.";
pg.textContent="page "+fmt(page+1)+" of "+fmt(pages);pv.disabled=page===0;nx.disabled=page>=pages-1;save()}
function save(){var h="#"+key;if(+f.value)h+=":f="+f.value;if(q.value)h+=":q="+encodeURIComponent(q.value);if(page)h+=":p="+(page+1);if(ps.value!=="50")h+=":n="+ps.value;
if(h==="#"+key&&location.hash.indexOf("#"+key+":")!==0)return;if(location.hash!==h&&history.replaceState)history.replaceState(null,"",h)}
function load(){var h=decodeURIComponent(location.hash||"");if(h!=="#"+key&&h.indexOf("#"+key+":")!==0)return false;
var p=1;f.value="0";q.value="";h.slice(key.length+2).split(":").forEach(function(kv){var i=kv.indexOf("="),k=kv.slice(0,i),v=kv.slice(i+1);
if(k==="f"&&f.querySelector("option[value='"+(+v)+"']"))f.value=String(+v);if(k==="q")q.value=v;if(k==="p")p=+v||1;if(k==="n"&&ps.querySelector("option[value='"+(+v)+"']"))ps.value=String(+v)});
page=p-1;return true}
f.addEventListener("change",function(){apply()});ps.addEventListener("change",function(){page=0;draw()});
q.addEventListener("input",function(){clearTimeout(timer);timer=setTimeout(function(){apply()},150)});
pv.addEventListener("click",function(){page--;draw()});nx.addEventListener("click",function(){page++;draw()});
Array.prototype.forEach.call(hs,function(th,j){function go(){up=sc===j?!up:true;sc=j;Array.prototype.forEach.call(hs,function(h){h.removeAttribute("aria-sort")});
th.setAttribute("aria-sort",up?"ascending":"descending");apply(true)}th.addEventListener("click",go);th.addEventListener("keydown",function(e){if(e.key==="Enter")go()})});
window.addEventListener("hashchange",function(){if(load()){apply(true);box.scrollIntoView()}});
var opened=load();apply(true);if(opened)box.scrollIntoView()});
})();`

// pageJS is the page's one script: sorting of the server-drawn tables,
// and the review tables.
const pageJS = sortJS + rowsJS
