<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="terrain" tilewidth="16" tileheight="16" tilecount="40" columns="8">
 <image source="../assets/terrain.png" width="128" height="80"/>
 <tile id="0">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="4" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
 </tile>
 <tile id="5" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="16"/>
   <property name="slope_right" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="12" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
 </tile>
 <tile id="13" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
 </tile>
 <tile id="14" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="16"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
 </tile>
 <tile id="15" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="one_way"/>
  </properties>
 </tile>
</tileset>
