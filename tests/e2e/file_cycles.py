#!/usr/bin/env python3
"""No circle among the files of one source folder: within each folder of src/, the files whose
public functions call each other must form no cycle (a file that calls another's function
depends on it). Functions are found by their definitions at the start of a line, not static.
Prints each cycle and exits 1 if there is one. Usage: file_cycles.py SOURCE_ROOT"""
import re,glob,collections,os,sys
os.chdir(sys.argv[1] if len(sys.argv) > 1 else '.')
sys.setrecursionlimit(10000)
bad=0
for d in sorted(set(os.path.dirname(f) for f in glob.glob('src/**/*.c',recursive=True)+glob.glob('src/**/*.cu',recursive=True))):
    files=glob.glob(d+'/*.c')+glob.glob(d+'/*.cu')
    defs={}
    for f in files:
        s=open(f).read()
        for m in re.finditer(r'^(?!static)[A-Za-z_][\w \*]*?\b(\w+)\([^;{]*\)\s*\{',s,re.M):
            defs.setdefault(m.group(1),f)
    G=collections.defaultdict(set)
    for f in files:
        s=open(f).read()
        for fn,df in defs.items():
            if df!=f and re.search(r'\b'+re.escape(fn)+r'\(',s): G[f].add(df)
    index={};low={};st=[];on=set();i=[0];res=[]
    def sc(v):
        index[v]=low[v]=i[0];i[0]+=1;st.append(v);on.add(v)
        for w in G.get(v,()):
            if w not in index: sc(w);low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],index[w])
        if low[v]==index[v]:
            comp=[]
            while True:
                w=st.pop();on.discard(w);comp.append(w)
                if w==v:break
            if len(comp)>1: res.append(comp)
    for v in files:
        if v not in index: sc(v)
    for c in res:
        print('FAIL %s: files that call each other round: %s' % (d, ' '.join(sorted(os.path.basename(x) for x in c))))
        bad += 1
sys.exit(1 if bad else 0)
