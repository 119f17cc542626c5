/* NVML, read only, loaded at run time (dlopen): the driver's current clocks, temperature, power,
 * throttle reasons, other compute processes, MIG and compute mode, for the environment record;
 * the total-energy counter, for the energy operation.
 * Nothing links against NVML, so gpusonar runs where it is absent and says so; nothing here
 * changes the card (no set* call is ever looked up). The few NVML types are declared here from
 * NVML's documented ABI (nvml.h is not part of the CUDA toolkit's runtime headers we build with). */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuda/cuda_internal.h"

typedef void *nvml_device;
typedef struct nvml_process {   /* nvmlProcessInfo_t (v2 layout, used by the _v3 query) */
    unsigned pid;
    unsigned long long used_gpu_memory;
    unsigned gpu_instance_id;
    unsigned compute_instance_id;
} nvml_process;

static struct {
    int tried;
    void *lib;
    char reason[120];
    int (*by_bus)(const char *, nvml_device *);
    int (*clock)(nvml_device, int, unsigned *);
    int (*temperature)(nvml_device, int, unsigned *);
    int (*power)(nvml_device, unsigned *);
    int (*power_limit)(nvml_device, unsigned *);
    int (*reasons)(nvml_device, unsigned long long *);
    int (*processes)(nvml_device, unsigned *, nvml_process *);
    int (*mig)(nvml_device, unsigned *, unsigned *);
    int (*compute_mode)(nvml_device, int *);
    int (*driver_version)(char *, unsigned);
    int (*cuda_version)(int *);
    int (*p2p_status)(nvml_device, nvml_device, int, int *);   /* nvmlDeviceGetP2PStatus */
    int (*ancestor)(nvml_device, nvml_device, int *);          /* ...GetTopologyCommonAncestor */
    int (*energy)(nvml_device, unsigned long long *);  /* ...GetTotalEnergyConsumption, mJ */
} nv;

#define NVML_SYM(field, name) nv.field = (decltype(nv.field))dlsym(nv.lib, name)

static bool nvml_load(void)
{
    if (nv.tried)
        return nv.lib != NULL;
    nv.tried = 1;
    nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nv.lib) {
        snprintf(nv.reason, sizeof nv.reason, "NVML not found (libnvidia-ml.so.1)");
        return false;
    }
    int (*init)(void) = (int (*)(void))dlsym(nv.lib, "nvmlInit_v2");
    int rc = init ? init() : -1;
    if (rc != 0) {
        snprintf(nv.reason, sizeof nv.reason, "NVML did not start (nvmlInit_v2: %d)", rc);
        nv.lib = NULL;
        return false;
    }
    NVML_SYM(by_bus, "nvmlDeviceGetHandleByPciBusId_v2");
    NVML_SYM(clock, "nvmlDeviceGetClockInfo");
    NVML_SYM(temperature, "nvmlDeviceGetTemperature");
    NVML_SYM(power, "nvmlDeviceGetPowerUsage");
    NVML_SYM(power_limit, "nvmlDeviceGetEnforcedPowerLimit");
    NVML_SYM(reasons, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nv.reasons)
        NVML_SYM(reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
    NVML_SYM(processes, "nvmlDeviceGetComputeRunningProcesses_v3");
    NVML_SYM(mig, "nvmlDeviceGetMigMode");
    NVML_SYM(compute_mode, "nvmlDeviceGetComputeMode");
    NVML_SYM(driver_version, "nvmlSystemGetDriverVersion");
    NVML_SYM(cuda_version, "nvmlSystemGetCudaDriverVersion_v2");
    NVML_SYM(p2p_status, "nvmlDeviceGetP2PStatus");
    NVML_SYM(ancestor, "nvmlDeviceGetTopologyCommonAncestor");
    NVML_SYM(energy, "nvmlDeviceGetTotalEnergyConsumption");
    return true;
}

static nvml_device nvml_device_of(const char *pci_bus_id)
{
    nvml_device dev = NULL;
    if (!nvml_load() || !pci_bus_id[0] || !nv.by_bus || nv.by_bus(pci_bus_id, &dev) != 0)
        return NULL;
    return dev;
}

double gs_cuda_driver_sm_clock_khz(const char *pci_bus_id)
{
    nvml_device dev = nvml_device_of(pci_bus_id);
    unsigned mhz = 0;
    const int NVML_CLOCK_SM = 1;
    if (!dev || !nv.clock || nv.clock(dev, NVML_CLOCK_SM, &mhz) != 0)
        return 0;
    return mhz * 1000.0;
}

/* A reading through fn(dev, &v), scaled; NAN when NVML lacks it or fails. */
static double reading(int (*fn)(nvml_device, unsigned *), nvml_device dev, double scale)
{
    unsigned v = 0;
    return fn && fn(dev, &v) == 0 ? v * scale : NAN;
}

static int gpu_temperature(nvml_device dev, unsigned *celsius)
{
    return nv.temperature(dev, 0 /* NVML_TEMPERATURE_GPU */, celsius);
}

static double clock_khz(nvml_device dev, int type)
{
    unsigned mhz = 0;
    return nv.clock && nv.clock(dev, type, &mhz) == 0 ? mhz * 1000.0 : NAN;
}

static void read_processes(nvml_device dev, gs_device_state *o)
{
    nvml_process list[64];
    unsigned n = 64;
    o->other_processes = -1;
    if (!nv.processes || nv.processes(dev, &n, list) != 0)
        return;
    o->other_processes = 0;
    for (unsigned i = 0; i < n && i < 64; i++)
        if (list[i].pid != (unsigned)getpid()) {
            if (o->other_processes < 8)
                o->other_pids[o->other_processes] = list[i].pid;
            o->other_processes++;
        }
}

int gs_cuda_state(gs_backend *b, gs_device_state *o, gs_error *err)
{
    (void)err;
    gs_cuda *c = gs_cuda_of(b);
    char bus[32] = "";
    memset(o, 0, sizeof *o);
    o->mig_mode = o->compute_mode = o->other_processes = -1;
    o->temperature_c = o->power_w = o->power_limit_w = o->sm_clock_khz = o->mem_clock_khz = NAN;
    if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, c->ordinal) != cudaSuccess)
        bus[0] = '\0';
    nvml_device dev = nvml_device_of(bus);
    if (!dev) {
        snprintf(o->reason, sizeof o->reason, "%s", nv.lib ? "NVML does not know this GPU's PCI "
                 "bus id" : nv.reason);
        return 0;
    }
    o->available = true;
    if (nv.driver_version && nv.driver_version(o->driver_version, sizeof o->driver_version) != 0)
        o->driver_version[0] = '\0';
    if (nv.cuda_version && nv.cuda_version(&o->cuda_driver_version) != 0)
        o->cuda_driver_version = 0;
    o->temperature_c = reading(nv.temperature ? gpu_temperature : NULL, dev, 1);
    o->power_w = reading(nv.power, dev, 1e-3);
    o->power_limit_w = reading(nv.power_limit, dev, 1e-3);
    o->sm_clock_khz = clock_khz(dev, 1 /* NVML_CLOCK_SM */);
    o->mem_clock_khz = clock_khz(dev, 2 /* NVML_CLOCK_MEM */);
    unsigned long long reasons = 0;
    o->throttle_known = nv.reasons && nv.reasons(dev, &reasons) == 0;
    o->throttle_reasons = o->throttle_known ? reasons : 0;
    unsigned mig = 0, pending = 0;
    if (nv.mig && nv.mig(dev, &mig, &pending) == 0)
        o->mig_mode = (int)mig;
    int mode = 0;
    if (nv.compute_mode && nv.compute_mode(dev, &mode) == 0)
        o->compute_mode = mode;
    read_processes(dev, o);
    return 0;
}

/* The PCIe path between two GPUs as nvidia-smi topo -m names it, from NVML's topology level. */
static const char *pcie_level_name(int level)
{
    switch (level) {
    case 0: return "X: the same board";
    case 10: return "PIX: one PCIe switch";
    case 20: return "PXB: several PCIe switches";
    case 30: return "PHB: through the host bridge";
    case 40: return "NODE: host bridges of one NUMA node";
    case 50: return "SYS: across the CPU interconnect";
    default: return "an unknown PCIe level";
    }
}

void gs_cuda_nvml_link(const char *bus_a, const char *bus_b, char *link, size_t link_len,
                       char *detail, size_t detail_len)
{
    const int NVML_P2P_CAPS_INDEX_NVLINK = 2, NVML_P2P_STATUS_OK = 0;
    nvml_device a = nvml_device_of(bus_a), b = nvml_device_of(bus_b);
    int status = -1, level = -1;
    snprintf(link, link_len, "%s", "");
    if (!a || !b) {
        snprintf(detail, detail_len, "%s", nv.lib ? "NVML does not know the GPU" : nv.reason);
        return;
    }
    if (nv.p2p_status && nv.p2p_status(a, b, NVML_P2P_CAPS_INDEX_NVLINK, &status) == 0 &&
        status == NVML_P2P_STATUS_OK) {
        snprintf(link, link_len, "nvlink");
        snprintf(detail, detail_len, "NVML: NVLink P2P status OK");
        return;
    }
    if (nv.ancestor && nv.ancestor(a, b, &level) == 0) {
        snprintf(link, link_len, "pcie");
        snprintf(detail, detail_len, "%s", pcie_level_name(level));
        return;
    }
    snprintf(detail, detail_len, "NVML gave neither NVLink status nor PCIe topology");
}

int gs_cuda_nvml_energy_open(const char *pci_bus_id, void **dev, char *why, size_t why_len)
{
    const int NVML_ERROR_NOT_SUPPORTED = 3;
    unsigned long long mj = 0;
    nvml_device d = nvml_device_of(pci_bus_id);
    *dev = NULL;
    if (!d) {
        snprintf(why, why_len, "%s", nv.lib ? "NVML does not know this GPU's PCI bus id"
                                            : nv.reason);
        return GS_ERR_UNSUPPORTED;
    }
    if (!nv.energy) {
        snprintf(why, why_len, "this NVML has no nvmlDeviceGetTotalEnergyConsumption");
        return GS_ERR_UNSUPPORTED;
    }
    int rc = nv.energy(d, &mj);
    if (rc != 0) {
        snprintf(why, why_len, "nvmlDeviceGetTotalEnergyConsumption: %s (NVML error %d)",
                 rc == NVML_ERROR_NOT_SUPPORTED ? "not supported on this GPU" : "failed", rc);
        return GS_ERR_UNSUPPORTED;
    }
    *dev = d;
    return 0;
}

int gs_cuda_nvml_energy_read(void *dev, unsigned long long *mj)
{
    return nv.energy((nvml_device)dev, mj);
}
