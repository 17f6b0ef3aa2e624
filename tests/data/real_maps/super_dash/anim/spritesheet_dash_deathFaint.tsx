<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="spritesheet_dash_deathFaint" tilewidth="64" tileheight="64" tilecount="24" columns="8">
 <image source="spritesheet_dash_deathFaint.png" width="512" height="192"/>
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
   <frame tileid="9" duration="42"/>
   <frame tileid="10" duration="42"/>
   <frame tileid="11" duration="42"/>
   <frame tileid="12" duration="42"/>
   <frame tileid="13" duration="42"/>
   <frame tileid="14" duration="42"/>
   <frame tileid="15" duration="42"/>
   <frame tileid="16" duration="42"/>
   <frame tileid="17" duration="42"/>
   <frame tileid="18" duration="42"/>
   <frame tileid="19" duration="42"/>
   <frame tileid="20" duration="42"/>
   <frame tileid="21" duration="42"/>
   <frame tileid="22" duration="42"/>
   <frame tileid="23" duration="42"/>
  </animation>
 </tile>
</tileset>
