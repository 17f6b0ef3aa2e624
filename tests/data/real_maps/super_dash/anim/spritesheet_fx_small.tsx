<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="spritesheet_fx_small" tilewidth="64" tileheight="64" tilecount="9" columns="3">
 <image source="spritesheet_fx_small.png" width="192" height="192"/>
 <tile id="0">
  <animation>
   <frame tileid="0" duration="42"/>
   <frame tileid="1" duration="42"/>
   <frame tileid="2" duration="42"/>
   <frame tileid="3" duration="42"/>
   <frame tileid="4" duration="42"/>
   <frame tileid="5" duration="42"/>
   <frame tileid="6" duration="42"/>
   <frame tileid="7" duration="42"/>
   <frame tileid="8" duration="42"/>
  </animation>
 </tile>
</tileset>
