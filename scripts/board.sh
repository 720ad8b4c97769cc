# The boards: QEMU's arm64 "virt" machine, as two profiles.
#   default  three virtio block devices and the test devices (fast; what
#            most tests run on)
#   zoo      real PCIe hardware and its drivers: NVMe, e1000e, xHCI with
#            USB storage, SDHCI with an SD card, virtio-net, AHCI
# Sourced by scripts/board-dtb and scripts/vm, so the DTB is always dumped
# for the very command line that boots it. Documentation/board.md has the
# layouts.

BOARDS=(default zoo)

# board_ok NAME: NAME is one of BOARDS (scripts/lib.sh is sourced first).
board_ok() {
	one_of "${1:-}" "${BOARDS[@]}"
}

# Where a board's overlays and layout live: board/ for the default one,
# board/NAME/ for the others.
board_dir() {
	if [ "$2" = default ]; then echo "$1/board"; else echo "$1/board/$2"; fi
}

# board_qemu_args DISKDIR [BOARD]: fills the array QEMU_ARGS. DISKDIR holds
# the raw images board_make_disks made.
board_qemu_args() {
	local d=$1
	QEMU_ARGS=(
		-machine virt,gic-version=3 -cpu cortex-a57 -smp 2 -m 1024
		-nographic -no-reboot -nic none
	)
	case "${2:-default}" in
	default)
		QEMU_ARGS+=(
			# Modern virtio-mmio only: legacy devices cannot negotiate
			# VIRTIO_F_ACCESS_PLATFORM and would bypass the DMA API.
			-global virtio-mmio.force-legacy=false
			# First virtio-mmio device (/virtio_mmio@a003e00): pool blk-pool.
			-drive if=none,id=blk,format=raw,file="$d/blk.img"
			-device virtio-blk-device,drive=blk,iommu_platform=on
			# Second one (/virtio_mmio@a003c00): the control, no pool.
			-drive if=none,id=ctl,format=raw,file="$d/ctl.img"
			-device virtio-blk-device,drive=ctl,iommu_platform=on
			# PCI 00:01.0 behind /pcie@10000000: pool pcie-pool.
			-drive if=none,id=pci,format=raw,file="$d/pci.img"
			-device virtio-blk-pci,drive=pci,iommu_platform=on,disable-legacy=on
		)
		;;
	zoo)
		# Fixed PCI slots: board/zoo/restricted-dma.dtso gives 00:01.0
		# a node (and a pool) of its own. The two NICs share one QEMU
		# hub and nothing else: no traffic leaves the guest. No option ROMs:
		# the board boots the kernel directly, and Debian ships them apart.
		QEMU_ARGS+=(
			-drive if=none,id=nvme,format=raw,file="$d/nvme.img"
			-device nvme,addr=01.0,serial=rdma-zoo-nvme,drive=nvme
			-netdev hubport,id=nic0,hubid=0
			-device e1000e,addr=02.0,romfile=,netdev=nic0,mac=52:54:00:7a:00:01
			-netdev hubport,id=nic1,hubid=0
			-device virtio-net-pci,addr=03.0,romfile=,netdev=nic1,mac=52:54:00:7a:00:02,iommu_platform=on,disable-legacy=on
			-device qemu-xhci,addr=04.0,id=xhci
			-drive if=none,id=usb,format=raw,file="$d/usb.img"
			-device usb-storage,bus=xhci.0,drive=usb
			-device sdhci-pci,addr=05.0
			-drive if=none,id=sd,format=raw,file="$d/sd.img"
			-device sd-card,drive=sd
			-device ich9-ahci,addr=06.0,id=ahci
			-drive if=none,id=sata,format=raw,file="$d/sata.img"
			-device ide-hd,bus=ahci.0,drive=sata
		)
		;;
	esac
}

# board_make_disks DISKDIR [BOARD]: fresh sparse 64 MiB images (an SD
# card's size must be a power of two).
board_make_disks() {
	local d=$1 f disks
	case "${2:-default}" in
	default) disks=(blk ctl pci) ;;
	zoo) disks=(nvme usb sd sata) ;;
	esac
	for f in "${disks[@]}"; do
		truncate -s 64M "$d/$f.img"
	done
}
