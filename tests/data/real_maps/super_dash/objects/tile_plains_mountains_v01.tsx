<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tile_plains_mountains_v01" tilewidth="576" tileheight="384" tilecount="2" columns="2">
 <image source="tile_plains_mountains_v01.png" width="1152" height="384"/>
</tileset>
