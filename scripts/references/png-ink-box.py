#!/usr/bin/env python3
# The ink box of a PNG: "x y width height" of the pixels that differ from the top-left pixel
# (or, with alpha, that have any alpha where the top-left is transparent). Only the standard
# library: decodes 8-bit non-interlaced PNGs, as hb-view and pango-view write them.
import sys, zlib, struct
def read(path):
    d = open(path,'rb').read(); assert d[:8]==b'\x89PNG\r\n\x1a\n'
    i=8; idat=b''; 
    while i < len(d):
        n,=struct.unpack('>I',d[i:i+4]); t=d[i+4:i+8]; c=d[i+8:i+8+n]; i+=12+n
        if t==b'IHDR': w,h,bd,ct,_,_,il=struct.unpack('>IIBBBBB',c)
        elif t==b'IDAT': idat+=c
    assert bd==8 and il==0
    ch={0:1,2:3,4:2,6:4}[ct]; raw=zlib.decompress(idat); stride=w*ch
    rows=[]; prev=bytearray(stride); p=0
    for y in range(h):
        f=raw[p]; line=bytearray(raw[p+1:p+1+stride]); p+=1+stride
        for x in range(stride):
            a=line[x-ch] if x>=ch else 0; b=prev[x]; c=prev[x-ch] if x>=ch else 0
            if f==1: line[x]=(line[x]+a)&255
            elif f==2: line[x]=(line[x]+b)&255
            elif f==3: line[x]=(line[x]+(a+b)//2)&255
            elif f==4:
                pa=abs(b-c); pb=abs(a-c); pc=abs(a+b-2*c)
                pr=a if pa<=pb and pa<=pc else (b if pb<=pc else c)
                line[x]=(line[x]+pr)&255
        rows.append(line); prev=line
    return w,h,ch,ct,rows
w,h,ch,ct,rows=read(sys.argv[1])
bg=rows[0][0:ch]
xs=[];ys=[]
for y,r in enumerate(rows):
    for x in range(w):
        px=r[x*ch:(x+1)*ch]
        if ct in (4,6): ink = px[-1] > 0 if bg[-1]==0 else px!=bg
        else: ink = px!=bg
        if ink: xs.append(x); ys.append(y)
print(min(xs),min(ys),max(xs)-min(xs)+1,max(ys)-min(ys)+1)
