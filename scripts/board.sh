# The board: QEMU's arm64 "virt" machine with three virtio block devices.
# Sourced by scripts/board-dtb and scripts/vm, so the DTB is always dumped
# for the very command line that boots it. Documentation/board.md has the
# layout.

# board_qemu_args DISKDIR: fills the array QEMU_ARGS. DISKDIR holds the
# raw images blk.img, ctl.img and pci.img.
board_qemu_args() {
	local d=$1
	QEMU_ARGS=(
		-machine virt,gic-version=3 -cpu cortex-a57 -smp 2 -m 1024
		-nographic -no-reboot -nic none
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
}

board_make_disks() {
	local d=$1 f
	for f in blk ctl pci; do
		truncate -s 64M "$d/$f.img"
	done
}
