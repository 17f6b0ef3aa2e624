<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.11.0" name="forest-trees" tilewidth="16" tileheight="16" tilecount="256" columns="16">
 <image source="../image/map/forest-trees.png" width="256" height="256"/>
</tileset>
