/* The CUDA backend's issue operation: a kernel of one instruction type (SP add, MADD/FMA, INT add
 * and multiply, DP FMA, native and software special functions, fp16x2 FMA, one tensor-core MMA,
 * and the instruction table's integer, float, conversion, warp-wide, memory and DPX classes)
 * with ILP 1, 2 or 4 independent chains, run at a chosen number of warps per block and concurrent
 * blocks per SM (Eq. 2 of the roofline paper: dynamic shared memory limits the blocks), with an
 * optional split of each warp's lanes into divergent paths (section V.D). Roofline paper, sections
 * III and V. The timed loop holds only the instruction under test (inline PTX); scripts/check_sass.sh
 * checks that in the SASS. Each block's first thread records clock64, globaltimer and %smid at the
 * start and end of its timed region; an SM's cycles are the globaltimer span from its earliest
 * block start to its latest block end, times that SM's own clock (src/analysis/issue_spans.h: a
 * block's clock64 is comparable only with blocks of the same physical SM); the wall time comes
 * from cudaEvents. */
#include <cuda_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/issue_spans.h"
#include "cuda/cuda_internal.h"
#include "cuda/mma_ops.cuh"

/* Instructions per loop trip, summed over the ILP chains (each chain gets per_trip / ilp). Large
 * enough that the loop's own counter, compare and branch take under 2% of the issue slots. */
#define TRIP_SIMPLE 256
#define TRIP_SFU_SIN 128  /* each is two SASS instructions: FMUL.RZ (scale by 1/2pi) + MUFU.SIN */
#define TRIP_SW_SIN 8     /* each is a whole software sinf: tens of instructions */
#define TRIP_MMA 128
#define TRIP_PAIR 128     /* each is two SASS instructions (a conversion pair, ISETP + VOTE) */

typedef gs_block_stamp issue_stamp;

static __device__ __forceinline__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __device__ __forceinline__ unsigned sm_id(void)
{
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

/* ---- the instructions, one inline-PTX operation each ------------------------------------------ */
struct op_fadd {
    typedef float T;
    typedef T C;
    static __device__ __forceinline__ void run(T &x, const T &c)
    {
        asm volatile("add.rn.f32 %0, %0, %1;" : "+f"(x) : "f"(c));
    }
};
struct op_ffma {
    typedef float T;
    typedef T C;
    static __device__ __forceinline__ void run(T &x, const T &c)
    {
        asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(c));
    }
};
/* INT add: ptxas fuses any two dependent adds into one three-input IADD3, so one instruction here
 * is the pair x + c + c, which is exactly one IADD3 (seen in the SASS: a single add.u32 per step
 * became half as many IADD3). */
struct op_iadd {
    typedef unsigned T;
    typedef unsigned C;
    static __device__ __forceinline__ void run(T &x, const C &c)
    {
        asm volatile("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %1;" : "+r"(x) : "r"(c));
    }
};
struct op_imul {
    typedef unsigned T;
    typedef T C;
    static __device__ __forceinline__ void run(T &x, const T &c)
    {
        asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(c));
    }
};
struct op_dfma {
    typedef double T;
    typedef T C;
    static __device__ __forceinline__ void run(T &x, const T &c)
    {
        asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(x) : "d"(c));
    }
};
struct op_sfu_sin {
    typedef float T;
    typedef T C;
    static __device__ __forceinline__ void run(T &x, const T &c)
    {
        (void)c; asm volatile("sin.approx.ftz.f32 %0, %0;" : "+f"(x));
    }
};
struct op_sfu_rsqrt {
    typedef float T;
    typedef T C;
    static __device__ __forceinline__ void run(T &x, const T &c)
    {
        (void)c; asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
    }
};
struct op_sw_sin {
    typedef float T;
    typedef T C;
    static __device__ __forceinline__ void run(T &x, const T &c)
    {
        (void)c; x = sinf(x);
    }
};
/* fp16x2 FMA x = x * x + x: every source is the chain's own register. With x * c + c, ptxas (CUDA
 * 13.0, sm_90) gave ILP 2's chain R0 and the operand R2 one register bank (both even) and no
 * reuse flag, so every other instruction read two registers of one bank, an issue cycle lost:
 * ILP 2 ran at 2/3 of ILP 1 and 4 on the H200 (lambda 0.38 against 0.27 and 0.26). One source
 * register cannot conflict with itself, whatever the allocation. (ptxas puts half of them on the
 * FMA pipe, HFMA2, and half on the MMA pipe, HFMA2.MMA, at every ILP: along the chain at ILP 1, a
 * pipe per chain at ILP 2 and 4, the FMA-pipe chains scheduled ahead, which at ILP 2 leaves 127
 * instructions right after one of their own chain whatever the source order: docs/methods.md,
 * pipeline.) The values overflow to inf or NaN, which takes no longer. scripts/check_sass.sh
 * checks chains, banks, back-to-back instructions and the pipes' halves. */
struct op_hfma2 {
    typedef unsigned T;  /* two fp16 in one 32-bit register */
    typedef T C;
    static __device__ __forceinline__ void run(T &x, const T &c)
    {
        (void)c; asm volatile("fma.rn.f16x2 %0, %0, %0, %0;" : "+r"(x));
    }
};
/* One warp-wide mma.sync m16n8k16 with fp16 inputs and fp16 accumulators: the chain is the
 * accumulator (D = A*B + D); the A fragment (4 registers) and B fragment (2) stay fixed. */
struct mma_acc {
    unsigned d0, d1;
};
struct mma_ab {
    unsigned a0, a1, a2, a3, b0, b1;
};
struct op_mma {
    typedef mma_acc T;
    typedef mma_ab C;
    static __device__ __forceinline__ void run(T &x, const C &c)
    {
        /* m16n8k16 needs sm_80 (it traps below); the host refuses mma below 8.0 (issue_table) */
        unsigned d[2] = {x.d0, x.d1};
        const unsigned a[4] = {c.a0, c.a1, c.a2, c.a3}, b[2] = {c.b0, c.b1};
        gs_mma_f16_f16acc(d, a, b);
        x.d0 = d[0];
        x.d1 = d[1];
    }
};

/* ---- the instruction table's classes (pipeline --table) --------------------------------------- */
/* One PTX instruction per step unless said; every chain reads only its own register and loop
 * invariants, so ILP k holds k independent chains. Where ptxas could fold two steps into one
 * (associative, idempotent or three-input forms) scripts/check_sass.sh counts the opcode per trip. */
#define OP_UNARY(name, T_, constraint, ptx)                                                      \
    struct name {                                                                                \
        typedef T_ T;                                                                            \
        typedef T_ C;                                                                            \
        static __device__ __forceinline__ void run(T &x, const C &c)                             \
        {                                                                                        \
            (void)c; asm volatile(ptx : "+" constraint(x));                                      \
        }                                                                                        \
    };
#define OP_BINARY(name, T_, constraint, ptx)                                                     \
    struct name {                                                                                \
        typedef T_ T;                                                                            \
        typedef T_ C;                                                                            \
        static __device__ __forceinline__ void run(T &x, const C &c)                             \
        {                                                                                        \
            asm volatile(ptx : "+" constraint(x) : constraint(c));                               \
        }                                                                                        \
    };
/* Two invariants with no bitwise relation ptxas could use (c and c times an odd constant; not ~c,
 * where c & ~c = 0 would let it drop a LOP3 step): a three-input form of x, c, c' */
#define OP_TERNARY(name, ptx)                                                                    \
    struct name {                                                                                \
        typedef unsigned T;                                                                      \
        typedef unsigned C;                                                                      \
        static __device__ __forceinline__ void run(T &x, const C &c)                             \
        {                                                                                        \
            asm volatile(ptx : "+r"(x) : "r"(c), "r"(c * 0x9e3779b9u));                          \
        }                                                                                        \
    };
OP_TERNARY(op_lop3, "lop3.b32 %0, %0, %1, %2, 0x78;")       /* x ^ (c & c'): LOP3.LUT */
OP_BINARY(op_shf, unsigned, "r", "shf.l.wrap.b32 %0, %1, %0, %0;") /* amount x: nothing folds */
OP_UNARY(op_popc, unsigned, "r", "popc.b32 %0, %0;")
OP_UNARY(op_flo, unsigned, "r", "bfind.u32 %0, %0;")
OP_UNARY(op_brev, unsigned, "r", "brev.b32 %0, %0;")
OP_BINARY(op_prmt, unsigned, "r", "prmt.b32 %0, %0, %1, 0x5140;")
OP_BINARY(op_fmul, float, "f", "mul.rn.f32 %0, %0, %1;")
OP_BINARY(op_fmnmx, float, "f", "max.f32 %0, %0, %1;")
OP_UNARY(op_sfu_cos, float, "f", "cos.approx.ftz.f32 %0, %0;")
OP_UNARY(op_sfu_ex2, float, "f", "ex2.approx.ftz.f32 %0, %0;")
OP_UNARY(op_sfu_lg2, float, "f", "lg2.approx.ftz.f32 %0, %0;")
/* rcp of |x|: ptxas folds rcp(rcp(x)) into x (an empty loop); the absolute value, an operand
 * modifier of MUFU.RCP that costs no instruction, breaks that pattern. */
OP_UNARY(op_sfu_rcp, float, "f", "{.reg .f32 t; abs.f32 t, %0; rcp.approx.ftz.f32 %0, t;}")
OP_UNARY(op_sfu_sqrt, float, "f", "sqrt.approx.ftz.f32 %0, %0;")
OP_BINARY(op_dadd, double, "d", "add.rn.f64 %0, %0, %1;")
OP_BINARY(op_dmul, double, "d", "mul.rn.f64 %0, %0, %1;")
OP_UNARY(op_hadd2, unsigned, "r", "add.rn.f16x2 %0, %0, %0;")  /* one source: no bank conflict */
/* Conversion pairs: a round trip that rounds (f64 -> f32, f32 -> f16, s32 -> f32), so no pair
 * is an identity ptxas could drop. The figures are per pair. */
OP_UNARY(op_f2f_f64, double, "d", "{.reg .f32 t; cvt.rn.f32.f64 t, %0; cvt.f64.f32 %0, t;}")
/* f32 -> f16: at ILP 2 and 4 ptxas packs two chains' scalar conversions into one F2FP.PACK_AB
 * (half the instructions); the packed form with both halves from the chain's own value fills
 * each F2FP, so every step is its own (sm_80 and later; the scalar form below). */
struct op_f2f_f16 {
    typedef float T;
    typedef float C;
    static __device__ __forceinline__ void run(T &x, const C &c)
    {
        (void)c;
#if __CUDA_ARCH__ >= 800
        asm volatile("{.reg .b32 t; .reg .b16 lo, hi; cvt.rn.f16x2.f32 t, %0, %0; "
                     "mov.b32 {lo, hi}, t; cvt.f32.f16 %0, hi;}" : "+f"(x));
#else
        asm volatile("{.reg .b16 t; cvt.rn.f16.f32 t, %0; cvt.f32.f16 %0, t;}" : "+f"(x));
#endif
    }
};
OP_UNARY(op_f2i_i2f, unsigned, "r", "{.reg .f32 t; cvt.rn.f32.s32 t, %0; cvt.rzi.s32.f32 %0, t;}")
/* Warp-wide: every lane takes part (the kernels never diverge for them). */
/* The source lane is the chain's own value (its low 5 bits), and the seed differs per lane
 * (hooks<op_shfl>): a shuffle of a warp-uniform value returns it unchanged, and with a
 * loop-invariant lane every shuffle after the first gives a uniform value, so ptxas dropped the
 * whole chain (the seed from in[] is uniform: every lane reads one word). */
OP_UNARY(op_shfl, unsigned, "r", "shfl.sync.idx.b32 %0, %0, %0, 0x1f, 0xffffffff;")
OP_UNARY(op_vote, unsigned, "r",
         "{.reg .pred p; setp.ne.u32 p, %0, 0; vote.sync.ballot.b32 %0, p, 0xffffffff;}")
OP_UNARY(op_match, unsigned, "r", "match.any.sync.b32 %0, %0, 0xffffffff;")
struct op_redux {
    typedef unsigned T;
    typedef unsigned C;
    static __device__ __forceinline__ void run(T &x, const C &c)
    {
        (void)c;
#if __CUDA_ARCH__ >= 800 /* redux.sync needs sm_80; the host refuses it below 8.0 */
        asm volatile("redux.sync.add.u32 %0, %0, 0xffffffff;" : "+r"(x));
#endif
    }
};
/* DPX (cc 9.0): the PTX of __vimax3_s32 and __viaddmax_s32, which ptxas fuses into one DPX
 * instruction on sm_90 and emulates with two elsewhere (the host refuses them below 9.0). */
OP_TERNARY(op_dpx_max3, "{.reg .s32 t; max.s32 t, %0, %1; max.s32 %0, t, %2;}")
OP_TERNARY(op_dpx_addmax, "{.reg .s32 t; add.s32 t, %0, %1; max.s32 %0, t, %2;}")

/* Memory classes. Shared memory: 32 words per warp (so no two warps share a word), each lane its
 * own bank. A load chain reads a word that holds its own address (x = [x]); a store writes x to
 * the lane's word (a volatile store: ptxas drops a store that the next one to the same word
 * overwrites unread, which left one STS of 256 in the loop); the atomic adds x to it and returns the old value, the chain. */
__shared__ __align__(16) unsigned issue_words[1024];
static __device__ __forceinline__ unsigned lane_id(void) { return threadIdx.x & 31u; }
static __device__ __forceinline__ unsigned shared_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
static __device__ __forceinline__ unsigned *warp_words(void)
{
    return &issue_words[(threadIdx.x >> 5) * 32u];
}
OP_UNARY(op_lds, unsigned, "r", "ld.shared.u32 %0, [%0];")
struct op_sts {
    typedef unsigned T;
    typedef unsigned C;
    static __device__ __forceinline__ void run(T &x, const C &c)
    {
        asm volatile("st.volatile.shared.u32 [%1], %0;" : : "r"(x), "r"(c));
    }
};
struct op_atoms {
    typedef unsigned T;
    typedef unsigned C;
    static __device__ __forceinline__ void run(T &x, const C &c)
    {
        asm volatile("atom.shared.add.u32 %0, [%1], %0;" : "+r"(x) : "r"(c));
    }
};
/* ldmatrix .x1: lanes 0-7 give the 8 row addresses (16 B apart) and lane l receives word l of
 * the 8x8 b16 matrix; word l holds the address of row l mod 8, so every lane gets back the
 * address it gave (the chain), and lanes 8-31, whose addresses are unused, keep one too. */
struct op_ldsm {
    typedef unsigned T;
    typedef unsigned C;
    static __device__ __forceinline__ void run(T &x, const C &c)
    {
        (void)c;
#if __CUDA_ARCH__ >= 750 /* ldmatrix needs sm_75 */
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%0];" : "+r"(x));
#endif
    }
};
/* Global memory: 32 words of 8 B per kernel, each holding its own address: an L1 hit after the
 * first trip (.ca caches in L1); chain k of a lane reads word lane ^ k, so no two chains start
 * from one value (ptxas could treat equal chains as one). Stores: each warp its own 128-B line of
 * a 256-KB region, volatile as the shared stores are (ptxas merged weak and relaxed stores to one
 * word alike; only the volatile form, a strong store, stays one per step). */
OP_UNARY(op_ldg, unsigned long long, "l", "ld.global.ca.u64 %0, [%0];")
struct op_stg {
    typedef unsigned T;
    typedef unsigned long long C;
    static __device__ __forceinline__ void run(T &x, const C &c)
    {
        asm volatile("st.volatile.global.u32 [%1], %0;" : : "r"(x), "l"(c));
    }
};

/* Starting values from the input array (so nothing is known at compile time) and a fold of the
 * chains for the never-taken store. */
template <typename T> struct seed_of;
template <> struct seed_of<float> {
    static __device__ float get(const float *in, int k) { return in[k]; }
    static __device__ float fold(float a, float b) { return a + b; }
};
template <> struct seed_of<double> {
    static __device__ double get(const float *in, int k) { return (double)in[k]; }
    static __device__ double fold(double a, double b) { return a + b; }
};
template <> struct seed_of<unsigned> {
    static __device__ unsigned get(const float *in, int k) { return __float_as_uint(in[k]) | 1u; }
    static __device__ unsigned fold(unsigned a, unsigned b) { return a ^ b; }
};
template <> struct seed_of<unsigned long long> {
    static __device__ unsigned long long get(const float *in, int k) { return __float_as_uint(in[k]); }
    static __device__ unsigned long long fold(unsigned long long a, unsigned long long b) { return a ^ b; }
};
template <> struct seed_of<mma_ab> {
    static __device__ mma_ab get(const float *in, int k)
    {
        mma_ab c;
        c.a0 = __float_as_uint(in[k]);
        c.a1 = __float_as_uint(in[k + 1]);
        c.a2 = __float_as_uint(in[k]) ^ 0x00010001u;
        c.a3 = __float_as_uint(in[k + 1]) ^ 0x00010001u;
        c.b0 = __float_as_uint(in[k]) ^ 0x00020002u;
        c.b1 = __float_as_uint(in[k + 1]) ^ 0x00020002u;
        return c;
    }
};
template <> struct seed_of<mma_acc> {
    static __device__ mma_acc get(const float *in, int k)
    {
        mma_acc a = {__float_as_uint(in[k]) & 0x3bff3bffu, __float_as_uint(in[k + 1]) & 0x3bff3bffu};
        return a;
    }
    static __device__ mma_acc fold(mma_acc a, mma_acc b)
    {
        mma_acc r = {a.d0 ^ b.d0, a.d1 ^ b.d1};
        return r;
    }
};

/* Per-class set-up before the timed region and the chains' seeds and operand: the defaults read
 * the input array; the memory classes point at their words. out holds the global words: 256 B of
 * chase words at its start, then the store lines. */
#define OUT_STORE_OFFSET 256u
#define OUT_STORE_LINES 2048u
#define OUT_BYTES (OUT_STORE_OFFSET + OUT_STORE_LINES * 128u)
template <class Op> struct hooks {
    static __device__ void init(float *out) { (void)out; }
    static __device__ typename Op::T seed(const float *in, float *out, int k)
    {
        (void)out; return seed_of<typename Op::T>::get(in, k);
    }
    static __device__ typename Op::C operand(const float *in, float *out)
    {
        (void)out; return seed_of<typename Op::C>::get(in, 8);
    }
};
template <> struct hooks<op_lds> {
    static __device__ void init(float *) { warp_words()[lane_id()] = shared_addr(&warp_words()[lane_id()]); }
    static __device__ unsigned seed(const float *, float *, int) { return shared_addr(&warp_words()[lane_id()]); }
    static __device__ unsigned operand(const float *, float *) { return 0; }
};
template <> struct hooks<op_ldsm> {
    static __device__ void init(float *) { warp_words()[lane_id()] = shared_addr(warp_words()) + 16u * (lane_id() & 7u); }
    static __device__ unsigned seed(const float *, float *, int) { return shared_addr(warp_words()) + 16u * (lane_id() & 7u); }
    static __device__ unsigned operand(const float *, float *) { return 0; }
};
template <> struct hooks<op_sts> {
    static __device__ void init(float *) {}
    static __device__ unsigned seed(const float *in, float *, int k) { return seed_of<unsigned>::get(in, k); }
    static __device__ unsigned operand(const float *, float *) { return shared_addr(&warp_words()[lane_id()]); }
};
template <> struct hooks<op_shfl> {
    static __device__ void init(float *) {}
    static __device__ unsigned seed(const float *in, float *, int k)
    {
        return seed_of<unsigned>::get(in, k) ^ (lane_id() << 1); /* differs per lane */
    }
    static __device__ unsigned operand(const float *, float *) { return 0; }
};
template <> struct hooks<op_atoms> {
    static __device__ void init(float *) { warp_words()[lane_id()] = 0; }
    static __device__ unsigned seed(const float *in, float *, int k) { return seed_of<unsigned>::get(in, k); }
    static __device__ unsigned operand(const float *, float *) { return shared_addr(&warp_words()[lane_id()]); }
};
template <> struct hooks<op_ldg> {
    static __device__ unsigned long long word(float *out, unsigned w)
    {
        return (unsigned long long)((unsigned long long *)out + w);
    }
    static __device__ void init(float *out)
    {
        if (threadIdx.x < 32) /* every block writes the same values */
            *(unsigned long long *)word(out, lane_id()) = word(out, lane_id());
    }
    static __device__ unsigned long long seed(const float *, float *out, int k)
    {
        return word(out, lane_id() ^ (unsigned)k);
    }
    static __device__ unsigned long long operand(const float *, float *) { return 0; }
};
template <> struct hooks<op_stg> {
    static __device__ void init(float *) {}
    static __device__ unsigned seed(const float *in, float *, int k) { return seed_of<unsigned>::get(in, k); }
    static __device__ unsigned long long operand(const float *, float *out)
    {
        unsigned line = (blockIdx.x * 32u + (threadIdx.x >> 5)) % OUT_STORE_LINES;
        return (unsigned long long)((char *)out + OUT_STORE_OFFSET + line * 128u + lane_id() * 4u);
    }
};

/* The timed loop: ILP chains of Op, PER_TRIP instructions per trip. */
template <class Op, int ILP, int PER_TRIP>
static __device__ __forceinline__ void issue_loop(typename Op::T (&x)[ILP], const typename Op::C &c,
                                                  unsigned iterations)
{
    for (unsigned i = 0; i < iterations; i++) {
#pragma unroll
        for (int u = 0; u < PER_TRIP / ILP; u++) {
#pragma unroll
            for (int k = 0; k < ILP; k++)
                Op::run(x[k], c);
        }
    }
}

/* The kernel body: the timed loop run once per divergent path by the lanes of that path
 * (lane mod paths == p; section V.D), between two barriers and clock64 reads. in[0..7] seeds the
 * chains, in[8..9] the operand; out is written only when the never-true flag is set. DIVERGE is
 * false for warp-wide instructions (mma.sync), which need the whole warp converged. */
template <class Op, int ILP, int PER_TRIP, bool DIVERGE>
static __device__ __forceinline__ void issue_body(const float *in, float *out, unsigned iterations,
                                                  unsigned paths, int write_flag,
                                                  issue_stamp *stamps,
                                                  unsigned long long *start_at,
                                                  unsigned long long start_lead_ns)
{
    typedef typename Op::T T;
    T x[ILP];
    hooks<Op>::init(out);   /* the barrier below orders it before the timed region */
#pragma unroll
    for (int k = 0; k < ILP; k++)
        x[k] = hooks<Op>::seed(in, out, k);
    typename Op::C c = hooks<Op>::operand(in, out);
    unsigned my_path = threadIdx.x & 31u; /* lane mod paths, without a division */
    while (my_path >= paths)
        my_path -= paths;

    /* The start rendezvous. On the H100 the second of two 24- or 32-warp blocks of an SM began
     * its timed region only when the first block ended (not yet placed, or its prologue starved
     * by a scheduler that favours the older block's warps), so the SM ran one block at a time,
     * not the planned two. So every block first finishes its prologue, then its thread 0 waits
     * (the other warps parked at a barrier, leaving the issue slots free) until one globaltimer
     * instant common to the grid: the first block to get here sets it start_lead_ns ahead. This
     * aligned the starts of most plans; a block that arrives later starts at once, and the
     * backend reports that as start spread (docs/methods.md, the issue kernels). */
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long want = global_ns() + start_lead_ns;
        unsigned long long prev = atomicCAS(start_at, 0ull, want);
        unsigned long long at = prev ? prev : want;
        while (global_ns() < at)
            ;
    }

    /* The clock reads wait for the barriers: a plain __syncthreads() is BAR.SYNC.DEFER_BLOCKING,
     * and a clock read right after it ran before the other warps had arrived (seen on the H100:
     * spans that ended when warp 0 finished, throughput above the unit's ceiling). A branch on
     * the barrier's count cannot be taken before the barrier completes. */
    unsigned long long t0 = 0, t1 = 0, g0 = 0, g1 = 0;
    unsigned s0 = 0, s1 = 0;
    if (__syncthreads_count(1) == blockDim.x) {
        t0 = clock64();
        g0 = global_ns();
        s0 = sm_id();
    }
    if (DIVERGE) {
        for (unsigned p = 0; p < paths; p++) {
            if (my_path == p)
                issue_loop<Op, ILP, PER_TRIP>(x, c, iterations);
        }
    } else {
        issue_loop<Op, ILP, PER_TRIP>(x, c, iterations);
    }
    if (__syncthreads_count(1) == blockDim.x) {
        g1 = global_ns();
        t1 = clock64();
        s1 = sm_id();
    }

    if (threadIdx.x == 0) {
        stamps[blockIdx.x].start_cycles = t0;
        stamps[blockIdx.x].end_cycles = t1;
        stamps[blockIdx.x].start_ns = g0;
        stamps[blockIdx.x].end_ns = g1;
        stamps[blockIdx.x].smid_start = s0;
        stamps[blockIdx.x].smid_end = s1;
    }
    if (write_flag) {
        T acc = x[0];
#pragma unroll
        for (int k = 1; k < ILP; k++)
            acc = seed_of<T>::fold(acc, x[k]);
        ((T *)out)[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    }
}

/* One extern "C" kernel per (instruction, ILP), so that cuobjdump shows plain names
 * (gs_issue_ffma_4) for scripts/check_sass.sh. */
#define ISSUE_KERNEL(name, Op, ilp, trip, diverge)                                               \
    extern "C" __global__ void __launch_bounds__(1024) gs_issue_##name##_##ilp(                  \
        const float *in, float *out, unsigned iterations, unsigned paths, int write_flag,        \
        issue_stamp *stamps, unsigned long long *start_at, unsigned long long start_lead_ns)     \
    {                                                                                            \
        issue_body<Op, ilp, trip, diverge>(in, out, iterations, paths, write_flag, stamps,       \
                                           start_at, start_lead_ns);                             \
    }
#define ISSUE_KERNELS(name, Op, trip, diverge)                                                   \
    ISSUE_KERNEL(name, Op, 1, trip, diverge)                                                     \
    ISSUE_KERNEL(name, Op, 2, trip, diverge)                                                     \
    ISSUE_KERNEL(name, Op, 4, trip, diverge)

ISSUE_KERNELS(fadd, op_fadd, TRIP_SIMPLE, true)
ISSUE_KERNELS(ffma, op_ffma, TRIP_SIMPLE, true)
ISSUE_KERNELS(iadd, op_iadd, TRIP_SIMPLE, true)
ISSUE_KERNELS(imul, op_imul, TRIP_SIMPLE, true)
ISSUE_KERNELS(dfma, op_dfma, TRIP_SIMPLE, true)
ISSUE_KERNELS(sfu_sin, op_sfu_sin, TRIP_SFU_SIN, true)
ISSUE_KERNELS(sfu_rsqrt, op_sfu_rsqrt, TRIP_SIMPLE, true)
ISSUE_KERNELS(sw_sin, op_sw_sin, TRIP_SW_SIN, true)
ISSUE_KERNELS(hfma2, op_hfma2, TRIP_SIMPLE, true)
ISSUE_KERNELS(mma, op_mma, TRIP_MMA, false)
ISSUE_KERNELS(lop3, op_lop3, TRIP_SIMPLE, true)
ISSUE_KERNELS(shf, op_shf, TRIP_SIMPLE, true)
ISSUE_KERNELS(popc, op_popc, TRIP_SIMPLE, true)
ISSUE_KERNELS(flo, op_flo, TRIP_SIMPLE, true)
ISSUE_KERNELS(brev, op_brev, TRIP_SIMPLE, true)
ISSUE_KERNELS(prmt, op_prmt, TRIP_SIMPLE, true)
ISSUE_KERNELS(fmul, op_fmul, TRIP_SIMPLE, true)
ISSUE_KERNELS(fmnmx, op_fmnmx, TRIP_SIMPLE, true)
ISSUE_KERNELS(sfu_cos, op_sfu_cos, TRIP_SFU_SIN, true)
ISSUE_KERNELS(sfu_ex2, op_sfu_ex2, TRIP_SIMPLE, true)
ISSUE_KERNELS(sfu_lg2, op_sfu_lg2, TRIP_SIMPLE, true)
ISSUE_KERNELS(sfu_rcp, op_sfu_rcp, TRIP_SIMPLE, true)
ISSUE_KERNELS(sfu_sqrt, op_sfu_sqrt, TRIP_SIMPLE, true)
ISSUE_KERNELS(dadd, op_dadd, TRIP_SIMPLE, true)
ISSUE_KERNELS(dmul, op_dmul, TRIP_SIMPLE, true)
ISSUE_KERNELS(hadd2, op_hadd2, TRIP_SIMPLE, true)
ISSUE_KERNELS(f2f_f64, op_f2f_f64, TRIP_PAIR, true)
ISSUE_KERNELS(f2f_f16, op_f2f_f16, TRIP_PAIR, true)
ISSUE_KERNELS(f2i_i2f, op_f2i_i2f, TRIP_PAIR, true)
ISSUE_KERNELS(shfl, op_shfl, TRIP_SIMPLE, false)
ISSUE_KERNELS(vote, op_vote, TRIP_PAIR, false)
ISSUE_KERNELS(match, op_match, TRIP_SIMPLE, false)
ISSUE_KERNELS(redux, op_redux, TRIP_SIMPLE, false)
ISSUE_KERNELS(lds, op_lds, TRIP_SIMPLE, true)
ISSUE_KERNELS(sts, op_sts, TRIP_SIMPLE, true)
ISSUE_KERNELS(ldg, op_ldg, TRIP_SIMPLE, true)
ISSUE_KERNELS(stg, op_stg, TRIP_SIMPLE, true)
ISSUE_KERNELS(ldsm, op_ldsm, TRIP_SIMPLE, false)
ISSUE_KERNELS(atoms, op_atoms, TRIP_SIMPLE, true)
ISSUE_KERNELS(dpx_max3, op_dpx_max3, TRIP_SIMPLE, true)
ISSUE_KERNELS(dpx_addmax, op_dpx_addmax, TRIP_SIMPLE, true)

typedef void (*issue_kernel_fn)(const float *, float *, unsigned, unsigned, int, issue_stamp *,
                                unsigned long long *, unsigned long long);

/* How far ahead of the first block's arrival the common start is set (issue_body): enough for the
 * launch to place every block of one wave and for starved prologues to finish (the H100 started
 * 2244 one-warp blocks within 2.4 us); short against the kernels (50 us by default). */
#define START_LEAD_NS 10000ull

/* The table: kernels per ILP (1, 2, 4), instructions per trip, the oldest compute capability. */
struct issue_entry {
    issue_kernel_fn kernel[3];
    unsigned per_trip;
    int min_cc;  /* major * 10 + minor */
};
#define ENTRY(name, trip, cc) {{gs_issue_##name##_1, gs_issue_##name##_2, gs_issue_##name##_4}, trip, cc}
static const issue_entry issue_table[] = {
    ENTRY(fadd, TRIP_SIMPLE, 0),        ENTRY(ffma, TRIP_SIMPLE, 0),
    ENTRY(iadd, TRIP_SIMPLE, 0),        ENTRY(imul, TRIP_SIMPLE, 0),
    ENTRY(dfma, TRIP_SIMPLE, 0),        ENTRY(sfu_sin, TRIP_SFU_SIN, 0),
    ENTRY(sfu_rsqrt, TRIP_SIMPLE, 0),   ENTRY(sw_sin, TRIP_SW_SIN, 0),
    ENTRY(hfma2, TRIP_SIMPLE, 53),      ENTRY(mma, TRIP_MMA, 80),
    ENTRY(lop3, TRIP_SIMPLE, 0),        ENTRY(shf, TRIP_SIMPLE, 0),
    ENTRY(popc, TRIP_SIMPLE, 0),        ENTRY(flo, TRIP_SIMPLE, 0),
    ENTRY(brev, TRIP_SIMPLE, 0),        ENTRY(prmt, TRIP_SIMPLE, 0),
    ENTRY(fmul, TRIP_SIMPLE, 0),        ENTRY(fmnmx, TRIP_SIMPLE, 0),
    ENTRY(sfu_cos, TRIP_SFU_SIN, 0),    ENTRY(sfu_ex2, TRIP_SIMPLE, 0),
    ENTRY(sfu_lg2, TRIP_SIMPLE, 0),     ENTRY(sfu_rcp, TRIP_SIMPLE, 0),
    ENTRY(sfu_sqrt, TRIP_SIMPLE, 0),    ENTRY(dadd, TRIP_SIMPLE, 0),
    ENTRY(dmul, TRIP_SIMPLE, 0),        ENTRY(hadd2, TRIP_SIMPLE, 53),
    ENTRY(f2f_f64, TRIP_PAIR, 0),       ENTRY(f2f_f16, TRIP_PAIR, 0),
    ENTRY(f2i_i2f, TRIP_PAIR, 0),       ENTRY(shfl, TRIP_SIMPLE, 0),
    ENTRY(vote, TRIP_PAIR, 0),          ENTRY(match, TRIP_SIMPLE, 70),
    ENTRY(redux, TRIP_SIMPLE, 80),      ENTRY(lds, TRIP_SIMPLE, 0),
    ENTRY(sts, TRIP_SIMPLE, 0),         ENTRY(ldg, TRIP_SIMPLE, 0),
    ENTRY(stg, TRIP_SIMPLE, 0),         ENTRY(ldsm, TRIP_SIMPLE, 75),
    ENTRY(atoms, TRIP_SIMPLE, 0),       ENTRY(dpx_max3, TRIP_SIMPLE, 90),
    ENTRY(dpx_addmax, TRIP_SIMPLE, 90),
};
static_assert(sizeof issue_table / sizeof *issue_table == GS_INSTR_COUNT,
              "one issue_table row per gs_instr, in its order");

static int ilp_index(unsigned ilp)
{
    return ilp == 1 ? 0 : ilp == 2 ? 1 : ilp == 4 ? 2 : -1;
}

/* ---- host side -------------------------------------------------------------------------------- */
/* Buffers kept between calls (a sweep makes thousands of launches): the seeds, the never-written
 * output, the per-block stamps, two events. */
static struct {
    int ordinal;
    float *in;
    float *out;
    unsigned long long *start_at;
    issue_stamp *stamps;
    size_t stamp_capacity;
    cudaEvent_t start, stop;
} issue_buf = {-1, NULL, NULL, NULL, NULL, 0, NULL, NULL};

/* The backend's close gives the buffers back, so that the next device of a --device list opened
 * in the same process gets its own (on the H100 pair, the second GPU's pipeline was not measured
 * while they stayed bound to the first). Errors are ignored: nothing can be reported at close,
 * and the device's context goes with the process anyway. */
void gs_cuda_issue_release(void)
{
    if (issue_buf.ordinal < 0)
        return;
    if (cudaSetDevice(issue_buf.ordinal) == cudaSuccess) {
        (void)cudaFree(issue_buf.in);
        (void)cudaFree(issue_buf.out);
        (void)cudaFree(issue_buf.start_at);
        (void)cudaFree(issue_buf.stamps);
        (void)cudaEventDestroy(issue_buf.start);
        (void)cudaEventDestroy(issue_buf.stop);
    }
    (void)cudaGetLastError();
    issue_buf.ordinal = -1;
    issue_buf.in = issue_buf.out = NULL;
    issue_buf.start_at = NULL;
    issue_buf.stamps = NULL;
    issue_buf.stamp_capacity = 0;
    issue_buf.start = issue_buf.stop = NULL;
}

static int issue_buffers(int ordinal, size_t blocks, gs_error *err)
{
    int rc = 0;
    if (issue_buf.ordinal != ordinal) {
        gs_cuda_issue_release();
        CUDA_TRY(cudaMalloc((void **)&issue_buf.in, 16 * sizeof(float)));
        CUDA_TRY(cudaMalloc((void **)&issue_buf.out, OUT_BYTES));
        CUDA_TRY(cudaMalloc((void **)&issue_buf.start_at, sizeof(unsigned long long)));
        CUDA_TRY(cudaEventCreate(&issue_buf.start));
        CUDA_TRY(cudaEventCreate(&issue_buf.stop));
        issue_buf.ordinal = ordinal;
    }
    if (blocks > issue_buf.stamp_capacity) {
        if (issue_buf.stamps)
            CUDA_TRY(cudaFree(issue_buf.stamps));
        issue_buf.stamps = NULL;
        issue_buf.stamp_capacity = 0;
        CUDA_TRY(cudaMalloc((void **)&issue_buf.stamps, blocks * sizeof(issue_stamp)));
        issue_buf.stamp_capacity = blocks;
    }
fail:
    return rc;
}

/* Seeds of the chains (in[0..7]) and the operand (in[8..9]) for one instruction type: values that
 * stay finite and away from zero for the floating-point types. */
static void issue_seeds(gs_instr instr, float in[16])
{
    for (int k = 0; k < 16; k++)
        in[k] = 1.0f + 0.125f * (float)k;
    in[8] = 0.5f;
    in[9] = 0.25f;
    if (instr == GS_INSTR_HFMA2 || instr == GS_INSTR_HADD2 || instr == GS_INSTR_MMA) {
        unsigned half2_half = 0x38003800u; /* (0.5, 0.5) in fp16 */
        memcpy(&in[8], &half2_half, 4);
        memcpy(&in[9], &half2_half, 4);
    }
}

/* Eq. 2 of the roofline paper: the smallest dynamic shared memory per block that lets at most
 * limit blocks of this kernel run on one SM at once (binary search on the occupancy API). */
static int smem_for_limit(issue_kernel_fn kernel, int threads, unsigned limit, size_t optin_bytes,
                          size_t *smem_bytes, gs_error *err)
{
    int rc = 0, occ = 0;
    cudaFuncAttributes fa;
    size_t lo = 0, hi = 0;             /* invariant (once set): occ(hi) <= limit */
    CUDA_TRY(cudaFuncGetAttributes(&fa, (const void *)kernel));
    if (fa.sharedSizeBytes >= optin_bytes)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: the kernel's own %zu B of shared memory "
                       "leave no room under the %zu B a block may hold", fa.sharedSizeBytes,
                       optin_bytes);
    optin_bytes -= fa.sharedSizeBytes; /* the dynamic share: a block holds both */
    hi = optin_bytes;
    CUDA_TRY(cudaFuncSetAttribute((const void *)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int)optin_bytes));
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, threads, optin_bytes));
    if ((unsigned)occ > limit)
        return gs_fail(err, GS_ERR_UNSUPPORTED,
                       "issue: cannot limit to %u block(s) per SM: even %zu B of shared memory per "
                       "block lets %d run", limit, optin_bytes, occ);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, threads, mid));
        if ((unsigned)occ <= limit)
            hi = mid;
        else
            lo = mid + 1;
    }
    *smem_bytes = lo;
    CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, threads, lo));
    if ((unsigned)occ < limit)
        return gs_fail(err, GS_ERR_UNSUPPORTED,
                       "issue: %u block(s) of %d threads cannot be resident on one SM together "
                       "(the occupancy calculator allows %d)", limit, threads, occ);
fail:
    return rc;
}

/* Diagnostics: with GS_ISSUE_STAMPS_CSV=FILE set, the raw stamps of every launch are appended to
 * FILE (launch number, block, SM ids, clock64 and globaltimer at both ends), to check the timing
 * by hand (docs/methods.md, "The issue kernels"). Nothing is written
 * without the variable. */
static void dump_stamps(const issue_stamp *st, size_t n)
{
    static unsigned launch;
    const char *path = getenv("GS_ISSUE_STAMPS_CSV");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    launch++;
    if (!f)
        return;
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%u,%zu,%u,%u,%llu,%llu,%llu,%llu\n", launch, i, st[i].smid_start, st[i].smid_end,
                (unsigned long long)st[i].start_cycles, (unsigned long long)st[i].end_cycles,
                (unsigned long long)st[i].start_ns, (unsigned long long)st[i].end_ns);
    fclose(f);
}

/* The result from the per-SM spans. When %smid cannot be trusted to name the physical SM (a block
 * moved, or an SM id held more blocks than the plan allows), the per-SM grouping is unsound: the
 * throughput is then the whole-kernel lower bound and the point is marked a measurement error. */
static void issue_fill(const gs_issue_plan *plan, const gs_span_summary *sp, double instructions,
                       unsigned sm_count, gs_issue_result *out)
{
    bool grouping_ok = gs_issue_spans_grouping_ok(sp, plan->blocks_per_sm_limit, sm_count);
    unsigned sms_used = sp->sms < sm_count ? sp->sms : sm_count;
    out->cycles = sp->max_sm_cycles;
    out->instructions = instructions;
    out->warps_per_sm = floor(sp->conc_blocks * plan->warps_per_block + 0.5);
    out->clock_khz = sp->clock_khz;
    out->kernel_ipc_per_sm = sp->kernel_cycles > 0 ? instructions / (sms_used * sp->kernel_cycles) : 0;
    out->clock64_ipc_per_sm = sp->sum_sm_clock64_cycles > 0 ? instructions / sp->sum_sm_clock64_cycles
                                                            : 0;
    out->start_spread_cycles = sp->start_spread_cycles;
    out->clock_mismatch_sms = sp->clock_mismatch_sms;
    out->moved_blocks = sp->moved_blocks;
    out->measurement_error = !grouping_ok;
    out->instr_per_cycle_per_sm = grouping_ok && sp->sum_sm_cycles > 0
                                      ? instructions / sp->sum_sm_cycles : out->kernel_ipc_per_sm;
}

static int issue_check_plan(const gs_cuda *cu, const gs_issue_plan *plan, gs_error *err)
{
    if (plan->instr < 0 || plan->instr >= GS_INSTR_COUNT)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: unknown instruction type %d", (int)plan->instr);
    if (ilp_index(plan->ilp) < 0)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: ILP %u; use 1, 2 or 4", plan->ilp);
    int cc = cu->prop.major * 10 + cu->prop.minor;
    if ((plan->instr == GS_INSTR_DPX_MAX3 || plan->instr == GS_INSTR_DPX_ADDMAX) && cc < 90)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "not DPX: emulated (DPX instructions need compute "
                       "capability 9.0; this device is %d.%d, where the intrinsics run as two "
                       "integer instructions)", cu->prop.major, cu->prop.minor);
    if (cc < issue_table[plan->instr].min_cc)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: %s needs compute capability %d.%d; this device "
                       "is %d.%d", gs_instr_name(plan->instr), issue_table[plan->instr].min_cc / 10,
                       issue_table[plan->instr].min_cc % 10, cu->prop.major, cu->prop.minor);
    unsigned threads = plan->warps_per_block * (unsigned)cu->prop.warpSize;
    if (plan->warps_per_block == 0 || threads > (unsigned)cu->prop.maxThreadsPerBlock)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: %u warps per block; this device allows 1 to %d",
                       plan->warps_per_block, cu->prop.maxThreadsPerBlock / cu->prop.warpSize);
    if (plan->blocks == 0 || plan->iterations == 0 || plan->divergent_paths > 32)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: needs blocks >= 1, iterations >= 1 and "
                       "divergent_paths 0..32 (got %u, %u, %u)", plan->blocks, plan->iterations,
                       plan->divergent_paths);
    if (gs_instr_converged(plan->instr) && plan->divergent_paths > 1)
        return gs_fail(err, GS_ERR_UNSUPPORTED, "issue: %s needs the whole warp converged; "
                       "divergent paths are not defined for it", gs_instr_name(plan->instr));
    return 0;
}

int gs_cuda_issue(gs_backend *b, const gs_issue_plan *plan, gs_issue_result *out, gs_error *err)
{
    int rc = 0;
    gs_cuda *cu = gs_cuda_of(b);
    const issue_entry *e;
    issue_kernel_fn kernel;
    issue_stamp *stamps = NULL;
    float in[16], ms = 0;
    size_t smem = 0;
    unsigned paths = plan->divergent_paths > 1 ? plan->divergent_paths : 1;
    int threads;
    gs_span_summary sp;
    size_t bad = 0;

    if ((rc = issue_check_plan(cu, plan, err)) != 0)
        return rc;
    e = &issue_table[plan->instr];
    kernel = e->kernel[ilp_index(plan->ilp)];
    threads = (int)(plan->warps_per_block * (unsigned)cu->prop.warpSize);
    CUDA_TRY(cudaSetDevice(cu->ordinal));
    if ((rc = issue_buffers(cu->ordinal, plan->blocks, err)) != 0)
        return rc;
    if (plan->blocks_per_sm_limit > 0 &&
        (rc = smem_for_limit(kernel, threads, plan->blocks_per_sm_limit,
                             cu->prop.sharedMemPerBlockOptin, &smem, err)) != 0)
        return rc;
    issue_seeds(plan->instr, in);
    CUDA_TRY(cudaMemcpy(issue_buf.in, in, sizeof in, cudaMemcpyHostToDevice));
    CUDA_TRY(cudaMemset(issue_buf.start_at, 0, sizeof(unsigned long long)));
    CUDA_TRY(cudaEventRecord(issue_buf.start));
    kernel<<<plan->blocks, threads, smem>>>(issue_buf.in, issue_buf.out, plan->iterations, paths, 0,
                                           issue_buf.stamps, issue_buf.start_at, START_LEAD_NS);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaEventRecord(issue_buf.stop));
    CUDA_LAUNCH_CHECK();
    CUDA_TRY(cudaEventElapsedTime(&ms, issue_buf.start, issue_buf.stop));
    stamps = (issue_stamp *)malloc(plan->blocks * sizeof *stamps);
    if (!stamps)
        return gs_fail(err, GS_ERR_NO_MEMORY, "issue: no host memory for %u stamps", plan->blocks);
    CUDA_TRY(cudaMemcpy(stamps, issue_buf.stamps, plan->blocks * sizeof *stamps,
                        cudaMemcpyDeviceToHost));
    dump_stamps(stamps, plan->blocks);
    if (gs_issue_spans(stamps, plan->blocks, 0, &sp, &bad) != 0) {
        rc = gs_fail(err, GS_ERR_DEVICE, "issue: block %zu has a bad stamp (clock64 %llu..%llu, "
                     "globaltimer %llu..%llu ns)", bad, (unsigned long long)stamps[bad].start_cycles,
                     (unsigned long long)stamps[bad].end_cycles,
                     (unsigned long long)stamps[bad].start_ns, (unsigned long long)stamps[bad].end_ns);
        goto fail;
    }
    issue_fill(plan, &sp, (double)plan->blocks * plan->warps_per_block * (double)plan->iterations *
               e->per_trip * paths, (unsigned)cu->prop.multiProcessorCount, out);
    out->ns = (double)ms * 1e6;
    out->instructions_per_trip = e->per_trip;
fail:
    free(stamps);
    return rc;
}
