<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.11.0" name="forest-tiles" tilewidth="16" tileheight="16" tilecount="1024" columns="32">
 <image source="../image/map/forest-ground.png" width="512" height="512"/>
</tileset>
