"""The timing of a slide whose video plays as the slide opens (PowerPoint's "Start: Automatically").

python-pptx adds a video that plays on a click; this is the tree PowerPoint itself writes for one
that starts with the slide: the main sequence's first effect, started on the slide's begin
(``evt="onBegin"``), a media call ``playFrom(0.0)`` on the video shape, lasting the clip.

>>> "playFrom(0.0)" in autoplay_timing(4, 2500) and 'dur="2500"' in autoplay_timing(4, 2500)
True
"""

from __future__ import annotations

from lxml import etree
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn

__all__ = ["autoplay_timing", "play_on_open"]


def autoplay_timing(shape_id: int, milliseconds: int) -> str:
    """The ``p:timing`` element that plays shape ``shape_id`` for ``milliseconds`` when the slide opens."""
    return f"""<p:timing {nsdecls("p")}><p:tnLst><p:par>
<p:cTn id="1" dur="indefinite" restart="never" nodeType="tmRoot"><p:childTnLst>
 <p:seq concurrent="1" nextAc="seek"><p:cTn id="2" dur="indefinite" nodeType="mainSeq"><p:childTnLst>
  <p:par><p:cTn id="3" fill="hold"><p:stCondLst><p:cond delay="indefinite"/>
   <p:cond evt="onBegin" delay="0"><p:tn val="2"/></p:cond></p:stCondLst><p:childTnLst>
   <p:par><p:cTn id="4" fill="hold"><p:stCondLst><p:cond delay="0"/></p:stCondLst><p:childTnLst>
    <p:par><p:cTn id="5" presetID="1" presetClass="mediacall" presetSubtype="0" fill="hold" nodeType="afterEffect">
     <p:stCondLst><p:cond delay="0"/></p:stCondLst><p:childTnLst>
      <p:cmd type="call" cmd="playFrom(0.0)"><p:cBhvr><p:cTn id="6" dur="{milliseconds}" fill="hold"/>
       <p:tgtEl><p:spTgt spid="{shape_id}"/></p:tgtEl></p:cBhvr></p:cmd>
     </p:childTnLst></p:cTn></p:par>
   </p:childTnLst></p:cTn></p:par>
  </p:childTnLst></p:cTn></p:par>
 </p:childTnLst></p:cTn>
 <p:prevCondLst><p:cond evt="onPrev" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:prevCondLst>
 <p:nextCondLst><p:cond evt="onNext" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:nextCondLst></p:seq>
 <p:video><p:cMediaNode vol="80000"><p:cTn id="7" fill="hold" display="0">
  <p:stCondLst><p:cond delay="indefinite"/></p:stCondLst></p:cTn>
  <p:tgtEl><p:spTgt spid="{shape_id}"/></p:tgtEl></p:cMediaNode></p:video>
</p:childTnLst></p:cTn></p:par></p:tnLst></p:timing>"""


def play_on_open(slide_element: etree._Element, shape_id: int, seconds: float) -> None:
    """Replace the slide's timing (python-pptx's, play on click) with :func:`autoplay_timing`."""
    for old in slide_element.findall(qn("p:timing")):
        slide_element.remove(old)
    timing = parse_xml(autoplay_timing(shape_id, max(1, round(seconds * 1000))))
    # p:timing comes after p:clrMapOvr and p:transition, before p:extLst (the schema's order)
    following = slide_element.find(qn("p:extLst"))
    if following is None:
        slide_element.append(timing)
    else:
        following.addprevious(timing)
