<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="spritesheet_phoenixDash_run" tilewidth="64" tileheight="64" tilecount="16" columns="8">
 <image source="spritesheet_phoenixDash_run.png" width="512" height="128"/>
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
  </animation>
 </tile>
</tileset>
