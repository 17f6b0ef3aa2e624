<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.11.0" name="simple hex flat top" tilewidth="60" tileheight="52" tilecount="6" columns="0">
 <grid orientation="orthogonal" width="1" height="1"/>
 <tile id="1">
  <image source="simple hex flat top/boat.png" width="60" height="52"/>
 </tile>
 <tile id="2">
  <image source="simple hex flat top/cave.png" width="60" height="52"/>
  <objectgroup draworder="index" id="2">
   <object id="2" x="10.5" y="31">
    <polygon points="0,0 20.75,-27.5 41.25,0.5"/>
   </object>
  </objectgroup>
 </tile>
 <tile id="4">
  <image source="simple hex flat top/moutain.png" width="60" height="52"/>
  <objectgroup draworder="index" id="2">
   <object id="1" x="14.75" y="20.5">
    <polygon points="0,0 14,-19.5 28.25,0"/>
   </object>
   <object id="2" x="12.75" y="42">
    <polygon points="0,0 7.5,-10.5 16.5,0.25"/>
   </object>
   <object id="3" x="28.75" y="35">
    <polygon points="0,0 12,-14 23.5,1"/>
   </object>
  </objectgroup>
 </tile>
 <tile id="5">
  <image source="simple hex flat top/ocean.png" width="60" height="52"/>
 </tile>
 <tile id="6">
  <image source="simple hex flat top/plain.png" width="60" height="52"/>
 </tile>
 <tile id="7">
  <image source="simple hex flat top/forest.png" width="60" height="52"/>
 </tile>
</tileset>
