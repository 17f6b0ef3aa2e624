<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.4" tiledversion="1.4.3" name="floaty" tilewidth="16" tileheight="16" tilecount="7" columns="7">
 <image source="./floaty_animation.png" width="112" height="16"/>
 <tile id="6">
  <animation>
   <frame tileid="0" duration="150"/>
   <frame tileid="1" duration="150"/>
   <frame tileid="2" duration="150"/>
   <frame tileid="3" duration="150"/>
   <frame tileid="4" duration="150"/>
   <frame tileid="5" duration="150"/>
   <frame tileid="6" duration="150"/>
  </animation>
 </tile>
</tileset>
