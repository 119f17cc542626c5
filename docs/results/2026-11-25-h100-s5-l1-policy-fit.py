# Exploration (session 5): which replacement policy predicts the H100 L1 policy traces?
# Reads the policy traces (series policy_{sequence,cyclic}_{blocks,cycles}) of the documents named on
# the command line, and prints for LRU, LIP, RRIP/QLRU variants and segmented LRU the share of
# mispredicted accesses per trace. Result in 2026-11-25-h100-s5.md, "L1 policy".
# usage: python3 2026-11-25-h100-s5-l1-policy-fit.py DOC.json...
import json,glob,itertools,sys
W=4
def traces():
    out=[]
    for f in sys.argv[1:]:
        d=json.load(open(f)); s=d['probes'][0]['series']
        for t in ('sequence','cyclic'):
            b=[int(x) for x in s['policy_%s_blocks'%t]['y']]; c=s['policy_%s_cycles'%t]['y']
            lo=min(c); thr = lo + 0.5*(sorted(c)[len(c)//2] if False else 0)
            # threshold: midpoint of the largest gap among sorted unique values below 1000
            thr=2.5*min(c)
            out.append((f.split('/')[-1]+':'+t, b, [x>thr for x in c]))
    return out
class Base:
    def __init__(s): s.tag=[None]*W
class LRU(Base):
    def __init__(s): super().__init__(); s.t=[0]*W; s.clk=0
    def hit(s,w): s.clk+=1; s.t[w]=s.clk
    def fill(s,w): s.clk+=1; s.t[w]=s.clk
    def victim(s): return min(range(W),key=lambda w:s.t[w])
class RRIP(Base):
    def __init__(s,bits=2,ins=None,hp=True,scan='left'):
        super().__init__(); s.M=(1<<bits)-1; s.ins=s.M-1 if ins is None else ins; s.hp=hp; s.r=[s.M]*W; s.scan=scan; s.ptr=0
    def hit(s,w): s.r[w]=0 if s.hp else max(0,s.r[w]-1)
    def fill(s,w): s.r[w]=s.ins
    def victim(s):
        while True:
            order=list(range(W)) if s.scan=='left' else [(s.ptr+i)%W for i in range(W)]
            for w in order:
                if s.r[w]==s.M:
                    if s.scan!='left': s.ptr=(w+1)%W
                    return w
            s.r=[x+1 for x in s.r]
class SLRU(Base):
    def __init__(s,k): super().__init__(); s.k=k; s.t=[0]*W; s.prot=[False]*W; s.clk=0
    def hit(s,w):
        s.clk+=1; s.t[w]=s.clk
        if not s.prot[w]:
            s.prot[w]=True
            P=[x for x in range(W) if s.prot[x]]
            if len(P)>s.k:
                d=min(P,key=lambda x:s.t[x]); s.prot[d]=False
    def fill(s,w): s.clk+=1; s.t[w]=s.clk; s.prot[w]=False
    def victim(s):
        c=[w for w in range(W) if not s.prot[w]] or list(range(W))
        return min(c,key=lambda w:s.t[w])
class LIP(Base):  # insert at LRU position, promote on hit
    def __init__(s): super().__init__(); s.t=[0]*W; s.clk=0
    def hit(s,w): s.clk+=1; s.t[w]=s.clk
    def fill(s,w): s.t[w]=min(s.t)-1
    def victim(s): return min(range(W),key=lambda w:s.t[w])
def predict(P,blocks):
    p=P(); res=[]
    for a in blocks:
        if a in p.tag: w=p.tag.index(a); p.hit(w); res.append(False)
        else:
            w=p.tag.index(None) if None in p.tag else p.victim()
            p.tag[w]=a; p.fill(w); res.append(True)
    return res
cands={'lru':LRU,'lip':LIP}
for bits in (1,2,3):
    for ins in range(0,(1<<bits)):
        for hp in (True,False):
            for scan in ('left','rot'):
                cands['rrip%d_i%d_%s_%s'%(bits,ins,'hp' if hp else 'fp',scan)]=lambda bits=bits,ins=ins,hp=hp,scan=scan: RRIP(bits,ins,hp,scan)
for k in (1,2,3): cands['slru%d'%k]=lambda k=k: SLRU(k)
T=traces()
res=[]
for name,P in cands.items():
    errs=[]
    for tn,b,m in T:
        pr=predict(P,b); n=len(b)
        errs.append(sum(x!=y for x,y in zip(pr,m))/n)
    res.append((max(errs),name,errs))
for r in sorted(res)[:15]: print('%.3f %-22s'%(r[0],r[1]), ' '.join('%.3f'%e for e in r[2]))

print('--- variants')
class SLRUv(Base):
    # protected segment of k lines (LRU within), probation LRU or FIFO; demote to probation MRU or LRU
    def __init__(s,k,prob='lru',demote='mru',prot_order='lru'):
        super().__init__(); s.k=k; s.prob=prob; s.demote=demote; s.po=prot_order
        s.t=[0]*W; s.f=[0]*W; s.prot=[False]*W; s.clk=0
    def hit(s,w):
        s.clk+=1
        if s.prob=='lru' or s.prot[w]:
            if s.po=='lru' or not s.prot[w]: s.t[w]=s.clk
        if not s.prot[w]:
            s.prot[w]=True; s.t[w]=s.clk
            P=[x for x in range(W) if s.prot[x]]
            if len(P)>s.k:
                d=min((x for x in P if x!=w),key=lambda x:s.t[x]); s.prot[d]=False
                s.clk+=1
                s.t[d]= s.clk if s.demote=='mru' else min(s.t)-1
                s.f[d]=s.t[d]
    def fill(s,w): s.clk+=1; s.t[w]=s.clk; s.f[w]=s.clk; s.prot[w]=False
    def victim(s):
        c=[w for w in range(W) if not s.prot[w]] or list(range(W))
        key=(lambda w:s.t[w]) if s.prob=='lru' else (lambda w:s.f[w])
        return min(c,key=key)
res=[]
for k in (1,2,3):
  for prob in ('lru','fifo'):
    for dem in ('mru','lru'):
      for po in ('lru','fifo'):
        name='slru%d_%s_%s_%s'%(k,prob,dem,po)
        P=lambda k=k,prob=prob,dem=dem,po=po: SLRUv(k,prob,dem,po)
        errs=[]
        for tn,b,m in T:
            pr=predict(P,b); errs.append(sum(x!=y for x,y in zip(pr,m))/len(b))
        res.append((max(errs),name,errs))
for r in sorted(res)[:10]: print('%.3f %-22s'%(r[0],r[1]), ' '.join('%.3f'%e for e in r[2]))

print('--- error positions')
for name,P in (('slru2',lambda: SLRUv(2,'lru','mru','lru')),('slru1',lambda: SLRUv(1,'lru','mru','lru'))):
    for tn,b,m in T:
        if 'cyclic' in tn: continue
        pr=predict(P,b); pos=[i for i,(x,y) in enumerate(zip(pr,m)) if x!=y]
        print(name, tn, len(pos), pos[:20])

print('--- detail')
for tn,b,m in T:
    if tn.startswith('l1-seed2.json:seq') or tn.startswith('tex.json:seq'):
        P=lambda: SLRUv(2,'lru','mru','lru'); p=P(); 
        for i,a in enumerate(b[:72]):
            hit = a in p.tag
            if hit: w=p.tag.index(a); p.hit(w)
            else:
                w=p.tag.index(None) if None in p.tag else p.victim(); p.tag[w]=a; p.fill(w)
            st=' '.join('%s%s'%(p.tag[x], '*' if p.prot[x] else '') for x in sorted(range(W),key=lambda x:p.t[x]))
            print(tn[:8], i, a, 'obs', 'M' if m[i] else 'h', 'pred', 'h' if hit else 'M', '|', st, '<<<' if hit == m[i] else '')

print('--- qlru')
HF={'H00':{0:0,1:0,2:0,3:0},'H11':{0:0,1:0,2:1,3:1},'H10':{0:0,1:0,2:0,3:1},'H21':{0:0,1:0,2:1,3:2},'H20':{0:0,1:0,2:0,3:2}}
class QLRU(Base):
    def __init__(s,h,ins,rep,upd):
        super().__init__(); s.h=HF[h]; s.ins=ins; s.rep=rep; s.upd=upd; s.a=[3]*W
    def hit(s,w): s.a[w]=s.h[s.a[w]]
    def fill(s,w): s.a[w]=s.ins
    def victim(s):
        while 3 not in s.a:
            if s.upd=='all': s.a=[x+1 for x in s.a]
            else: d=3-max(s.a); s.a=[x+d for x in s.a]
        if s.rep=='left': return s.a.index(3)
        return W-1-s.a[::-1].index(3)
res=[]
for h in HF:
  for ins in range(4):
    for rep in ('left','right'):
      for upd in ('all','max'):
        P=lambda h=h,ins=ins,rep=rep,upd=upd: QLRU(h,ins,rep,upd)
        errs=[]
        for tn,b,m in T:
            pr=predict(P,b); errs.append(sum(x!=y for x,y in zip(pr,m))/len(b))
        res.append((max(errs),'q_%s_M%d_%s_%s'%(h,ins,rep,upd),errs))
for r in sorted(res)[:8]: print('%.3f %-22s'%(r[0],r[1]), ' '.join('%.3f'%e for e in r[2]))
